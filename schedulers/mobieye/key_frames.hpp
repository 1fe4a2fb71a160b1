#pragma once
/// Key-frame scheduling for deep feature flow: a static interval (DFF's default) and MobiEye's
/// Video-based Dynamic Scheduling, VDS [Mao-PhD §4.4.3].
///
/// VDS, as the text gives it: fi_cur is the min-max linear mapping of the frame's mean motion-vector
/// magnitude mv_mean from [mv_min, mv_max] onto the interval range [fi_min, fi_max], high motion
/// giving short intervals; mv_acc is the motion accumulated from the last key frame to the current
/// frame, and when mv_acc > mv_max then fi_cur = fi_min. The text leaves open, and these are OUR
/// choices:
/// - mv_min defaults to 0 (no value is given);
/// - the mapping is fi_cur = fi_max - (m - mv_min) / (mv_max - mv_min) * (fi_max - fi_min) with m
///   the motion clamped to [mv_min, mv_max], rounded to the nearest integer, halves away from zero;
/// - the key-frame test (not stated): frame f is a key frame when f - last_key >= fi_cur;
/// - mv_acc includes the current frame's motion before the test (it is "the total motion from the
///   last key frame until the current frame"), and a key frame restarts it at 0, its own motion not
///   counted (that motion led up to the key frame);
/// - frame 0 is always a key frame; an I frame's motion is whatever the trace says (0 from
///   `make-trace video`), so an I frame adds nothing to mv_acc and maps to fi_max.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer::mobieye {

struct VdsParams {
  double mv_min = 0.0, mv_max = 0.0;  ///< motion range in pixels, 0 <= mv_min < mv_max
  int fi_min = 0, fi_max = 0;         ///< key-frame interval range in frames, 1 <= fi_min <= fi_max

  /// From JSON `{mv_max, fi_min, fi_max, mv_min?}` (other keys rejected); throws `InputError(file,
  /// path + ".fi_min", "expected <= fi_max (30), got 40")` and the like on bad values.
  ///
  ///     const auto p = VdsParams::from_json(scheduler["vds"], "s.yaml", "scheduler.vds");
  static VdsParams from_json(const Json& j, const std::string& file, const std::string& path);
};

/// VDS's interval for a frame of motion `motion_px` (the min-max mapping above, rounded), before the
/// mv_acc reset. Example: {mv_max 10, fi_min 5, fi_max 20}: motion 0 -> 20, 5 -> 13 (12.5 rounded
/// away from zero), >= 10 -> 5.
int vds_interval(const VdsParams& p, double motion_px);

/// Decides key frames one frame at a time, in order. Frame 0 is always a key frame.
class KeyFramePolicy {
 public:
  virtual ~KeyFramePolicy() = default;
  /// Is frame `frame` (called with 0, 1, 2, ... in order: asserted) a key frame?
  virtual bool is_key(std::size_t frame) = 0;
};

/// Every `interval` frames (interval >= 1, asserted): frames 0, k, 2k, ...
std::unique_ptr<KeyFramePolicy> static_interval(int interval);
/// VDS over `motion_px` (one value per frame; asking about a frame beyond it is an assertion).
std::unique_ptr<KeyFramePolicy> vds(const VdsParams& p, std::vector<double> motion_px);

/// The decisions for frames 0 .. frames-1, asked of `policy` in order (a fresh policy).
std::vector<bool> key_frames(KeyFramePolicy& policy, std::size_t frames);
/// Average key-frame interval: frames / key frames (NaN when there is no key frame).
/// Example: {1,0,0,1,0} -> 2.5.
double average_key_interval(const std::vector<bool>& keys);

}  // namespace coinfer::mobieye
