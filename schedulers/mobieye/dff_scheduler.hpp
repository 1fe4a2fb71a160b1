#pragma once
/// MobiEye's deep-feature-flow pipeline as runtime schedulers [Mao-PhD §4.3]: `dff` (sequential DFF)
/// and `adff` (asynchronous DFF, its key-frame FeatNet on a second GPU).
///
/// Plan variants (built by plan_variants from the platform and the parameters, dff_params.hpp):
///   capture  `encode` on `phone` (the phone calibration's codec.encode_ms: Pixel 2 14.9 ms, Nexus 5
///            22.8 ms [Mao-PhD §4.6.2]) -> `upload` to `decoder` over `network` (this frame's encoded
///            bytes at `resolution`, from the video trace; with `frame_bits_per_pixel`, the paper's
///            stated size instead: bpp x W x H / 8, e.g. 1.611 x 1280 x 960 / 8 = 247,450 bytes (1.98 Mb)
///            [Mao-PhD §4.6.2]) -> `decode` on `decoder` (`decode_ms`, 3.9)
///   inter    `inter` on `gpu`: the inter model (FlowNet + propagation) at `inter_input`, its time from
///            the cost model on that device (or a fixed `inter_ms`; the key model likewise, `key_ms`)
///   key      dff only: `key` on `gpu`, the key model (ResNet-101 at 3x600x1000) instead of the inter pass
///   result   `result` (`result_bytes`) from `decoder` back to `phone`
/// Every frame runs capture, then (a decision point after decode) inter or key, then result; its
/// record names `result`. The GPU-to-decoder hop inside the server is not modelled.
///
/// Key frames: a static `interval` (frames 0, k, 2k, ...) or `vds: {...}` over the trace's motion
/// [Mao-PhD §4.4], decided at each frame's release in order.
/// - dff: key frames run `key` in line; a frame's feature age is its distance to its key frame.
/// - adff: every frame runs `inter` against the newest feature map finished when its decode ends
///   (our reading: the inter thread picks the map under the mutex as the frame arrives,
///   [Mao-PhD §4.3.2]). Each key frame, once decoded, also starts a background FeatNet job on `key_gpu`
///   (Scheduler::take_background); its map is available when the job ends. Frames decoded before the
///   first map exists wait for it (held: the workload needs a finite deadline). Feature age = frame
///   index - the index of the key frame whose map its inter pass used.
/// The measured D_f emerges from the replay: for each key frame k but the first, the first frame whose
/// inter pass used k's map, minus k ([Mao-PhD eq. 4.1] predicts ceil(T_FeatNet / (T_inter + other))).
///
/// SSI (`ssi_file`): each inter pass's time is the dense time x the profile's time_ratio at the frame's
/// eq. 4.2 mask density at its feature age (VideoTrace::mask_density_at_age).
///
/// Per-frame values (frames.csv): feature_age, key (1 on key frames), upload_ms (admission to decode
/// end less encode and decode: the uplink, its wake-up and queueing), inference_ms (decode end to the
/// end of its GPU pass, queueing included), result_ms (GPU pass end to the frame's end). Summary
/// (scheduler_metrics): feature_delay_frames (mean measured D_f) and feature_delay_frames_max,
/// eq41_delay_frames (eq. 4.1 on the model times and other_ms), eq41_delay_frames_at_spacing (eq. 4.1
/// on the mean spacing of the frames' decode ends, mean_frame_spacing_ms), delay (when configured),
/// mean_feature_age, max_feature_age, key_frames, average_key_interval, encode_ms, mean_upload_ms,
/// mean_upload_bytes (the encoded bytes of the frames that were uploaded), decode_ms, mean_inference_ms,
/// mean_result_ms (the latency breakdown), inter_ms, key_ms (the model times on their devices), effective_map
/// (with `map_table`), ssi_mean_density and ssi_mean_ratio (with `ssi_file`).
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "schedulers/mobieye/dff_params.hpp"
#include "schedulers/mobieye/ssi_profile.hpp"
#include "schedulers/mobieye/video_trace.hpp"
#include "sim/workload/scheduler.hpp"

namespace coinfer::mobieye {

class DffScheduler final : public Scheduler {
 public:
  /// Reads the trace (and SSI profile); throws InputError naming them or the parameter.
  DffScheduler(bool asynchronous, DffParams params);
  std::string name() const override { return asynchronous_ ? "adff" : "dff"; }
  std::vector<Plan> plan_variants(std::vector<Plan> partitioned, const Platform& platform) override;
  FrameDecision on_frame(const SchedulerView& view) override;
  Continuation on_plan_end(std::size_t frame, const SchedulerView& view) override;
  std::vector<std::pair<std::size_t, Continuation>> take_decisions(const SchedulerView& view) override;
  bool runs_background() const override { return asynchronous_; }
  std::vector<BackgroundJob> take_background(const SchedulerView& view) override;
  void on_background_end(std::size_t tag, const SchedulerView& view) override;
  std::vector<std::string> frame_value_names() const override;
  std::vector<double> frame_values(std::size_t frame) const override;
  std::map<std::string, double> summary() const override;

 private:
  enum Variant : std::size_t { kCapture = 0, kInter = 1, kKey = 2 };
  /// Per frame, what the run decided.
  struct FrameInfo {
    bool key = false;
    std::optional<std::size_t> map;  ///< the key frame whose features its GPU pass used
    double decoded_s = 0.0;
    double upload_s =
        std::numeric_limits<double>::quiet_NaN();  ///< admission to decode end - encode - decode
    double inference_s = std::numeric_limits<double>::quiet_NaN();  ///< decode end to GPU pass end
    double result_s = std::numeric_limits<double>::quiet_NaN();     ///< GPU pass end to frame end
    double density = std::numeric_limits<double>::quiet_NaN();      ///< SSI: mask density at its age
    double ratio = std::numeric_limits<double>::quiet_NaN();        ///< SSI: time ratio
  };

  bool asynchronous_;
  DffParams params_;
  VideoTrace trace_;
  std::size_t size_ = 0;  ///< index of `resolution` in the trace's sizes
  std::optional<SsiProfile> ssi_;
  std::unique_ptr<KeyFramePolicy> policy_;
  double inter_s_ = 0.0, key_s_ = 0.0, featnet_s_ = 0.0, encode_s_ = 0.0;
  std::size_t result_variant_ = 0;
  std::vector<FrameInfo> frames_;
  std::optional<std::size_t> last_key_;  ///< dff: the latest key frame released
  std::vector<bool> map_ready_;          ///< adff: per frame, its key map has finished
  std::optional<std::size_t> first_map_;
  std::vector<std::size_t> pending_jobs_;  ///< adff: key frames decoded, FeatNet not yet asked
  std::vector<std::size_t> held_;          ///< adff: frames waiting for the first map

  FrameInfo& info(std::size_t frame);
  /// The inter pass of `frame` against key frame `map`'s features.
  Continuation inter_pass(std::size_t frame, std::size_t map);
  std::optional<std::size_t> newest_map(std::size_t frame) const;
  /// Bytes uploaded for `frame`: the trace's at the resolution, or the stated bits per pixel.
  double upload_bytes(std::size_t frame) const;
};

}  // namespace coinfer::mobieye
