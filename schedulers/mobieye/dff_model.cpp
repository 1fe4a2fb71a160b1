#include "schedulers/mobieye/dff_model.hpp"

#include <cassert>
#include <cmath>

namespace coinfer::mobieye {

int feature_delay_frames(double featnet_s, double flownet_s, double other_s) {
  assert(featnet_s > 0 && flownet_s > 0 && other_s >= 0);
  // eq. 4.1 [Mao-PhD §4.3.2]: FeatNet finishes ceil(T_FeatNet / T_frame) frames after it started,
  // T_frame being what one frame costs in the inter thread (FlowNet plus the other work).
  const double ratio = featnet_s / (flownet_s + other_s);
  const double nearest = std::round(ratio);
  if (std::abs(ratio - nearest) <= 1e-9 * nearest) return static_cast<int>(nearest);
  return static_cast<int>(std::ceil(ratio));
}

double sequential_mean_frame_s(double key_s, double inter_s, int interval) {
  assert(interval >= 1);
  // One key frame then interval - 1 inter frames per period [Mao-PhD §4.3.2].
  return (key_s + (interval - 1) * inter_s) / interval;
}

int max_key_distance(int interval, int delay, bool asynchronous) {
  // The last inter frame before the next key frame is interval - 1 frames after its key frame; ADFF
  // uses that key frame's features only once they are ready, delay frames later [Mao-PhD §4.3.2].
  return interval - 1 + (asynchronous ? delay : 0);
}

}  // namespace coinfer::mobieye
