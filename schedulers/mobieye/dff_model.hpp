#pragma once
/// Closed forms of deep feature flow's timing, sequential and asynchronous (ADFF) [Mao-PhD §4.3.2].
/// Sequential DFF runs FeatNet in line on key frames; ADFF runs it in a second thread, so every frame
/// runs as an inter frame against the latest finished feature map, which is D_f frames late.

namespace coinfer::mobieye {

/// eq. 4.1 with the other per-frame work: D_f = ceil(featnet_s / (flownet_s + other_s)), the
/// feature-map delay in frames. featnet_s, flownet_s > 0 and other_s >= 0 (asserted). A ratio within
/// 1e-9 (relative) of an integer counts as that integer, so that 1.1 / 0.1 gives 11, not 12.
/// Examples (sec. 4.3.2): (0.6, 0.2) -> 3; (0.6, 0.2, 0.2) -> 2.
int feature_delay_frames(double featnet_s, double flownet_s, double other_s = 0.0);
/// Sequential DFF's mean time per frame at key interval k >= 1 (asserted): (key_s + (k - 1) *
/// inter_s) / k. Example: (0.09, 0.02, 7) -> 0.03.
double sequential_mean_frame_s(double key_s, double inter_s, int interval);
/// Largest key-to-inter distance in frames: interval - 1 sequentially, interval - 1 + delay
/// asynchronously. Example: interval 7, delay 3 -> 6 and 9.
int max_key_distance(int interval, int delay, bool asynchronous);

}  // namespace coinfer::mobieye
