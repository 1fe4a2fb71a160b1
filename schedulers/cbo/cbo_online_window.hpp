#pragma once
/// `OnlineWindow`: the frames a running cbo-online (Tan & Cao, Algorithm 1) still needs, kept across
/// calls so that a call costs the same however long the stream has run.
///
/// Algorithm 1 runs over "the frames that have been processed locally" (sec. IV-D), and the paper's
/// runtime re-runs it as frames arrive and after each offload. A frame whose result could no longer
/// come back in time at any resolution, even with the uplink free from now on, can only be kept;
/// `solve_online` with `FrameWindow::kDeadline` already leaves such frames out of the DP, with the
/// same decisions (cbo_online.hpp). This class also stops holding them: `solve` forgets every frame
/// that has expired for its `uplink_free_at_s`, and since that time never decreases between calls,
/// an expired frame never comes back. What is held is the frames inside the deadline window
/// (about deadline x frame rate), whatever the stream's length.
///
///     cbo::OnlineWindow window(parameters);             // bandwidth, accuracies, times, deadline
///     const auto id = window.add(frame);                // after the NPU classified it
///     const auto s = window.solve(std::max(now_s, uplink_busy_until_s));
///     if (!s.offload.empty()) window.erase(s.offload.front());   // once it is offloaded
#include <cstddef>
#include <vector>

#include "schedulers/cbo/cbo_online.hpp"

namespace coinfer::cbo {

class OnlineWindow {
 public:
  /// `parameters`: resolutions, bandwidth, server time, latency and deadline of the stream; its
  /// frames and uplink_free_at are ignored.
  explicit OnlineWindow(Problem parameters);

  /// Holds a frame processed locally (one size per resolution; `std::invalid_argument` otherwise)
  /// and returns its stream index: 0, 1, 2, ... in the order of the calls.
  std::size_t add(Frame frame);

  /// Forgets the frame with stream index `index` (say, once it is offloaded); false if not held.
  bool erase(std::size_t index);

  /// Forgets the expired frames, then runs Algorithm 1 over the held ones with the uplink free from
  /// `uplink_free_at_s`. `offload` holds stream indices. `uplink_free_at_s` must not decrease from
  /// one call to the next (`std::invalid_argument`).
  OnlineSolution solve(double uplink_free_at_s, ResolutionPolicy policy = ResolutionPolicy::kPerFrame);

  /// Number of frames held.
  std::size_t size() const { return problem_.frames.size(); }

 private:
  Problem problem_;                 ///< the parameters and the held frames, in stream order
  std::vector<std::size_t> index_;  ///< stream index of problem_.frames[k], increasing
  std::size_t next_index_ = 0;
  bool solved_ = false;
};

}  // namespace coinfer::cbo
