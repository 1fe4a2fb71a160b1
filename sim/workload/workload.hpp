#pragma once
/// What is run through a plan: one inference, a stream of frames, or training iterations.
///
/// - single: one frame released at `start_s`.
/// - stream: frames released every 1 / rate_fps seconds from `start_s`, `frames` of them (or
///   as many as fall in `duration_s`). When a frame is released while the plan's first stage
///   (compiled_plan.hpp) still works on an earlier frame, `policy` decides: `drop` it, or
///   `queue` it (FIFO; it starts when the first stage frees up). With a `deadline_s`, a
///   queued frame whose deadline has passed when its turn comes is dropped, and every frame
///   records whether it met its deadline. With `queue_capacity` = c > 0 (policy queue), at most c
///   frames wait: one released when c already wait is dropped as `busy` (a camera's frame
///   buffer). With `max_in_flight` = k > 0, the first stage also
///   counts as busy while k admitted frames have not completed: a pipeline whose stages hold one
///   frame each (k = its stage count) pushes back on its source when a later stage (a slow link)
///   is the bottleneck, so frames are dropped (or wait) at the entry instead of piling up
///   unboundedly before that stage (Hu & Krishnamachari sec. III: a frame the pipeline cannot
///   take is dropped).
///   With `arrivals: poisson` the gaps between releases are instead exponential with mean
///   1 / rate_fps (a Poisson process from `start_s`), drawn from `seed`: the scenario derives it
///   from its own seed, so the same scenario and seed release the same frames at the same times.
/// - training: `iterations` back to back (closed loop: iteration k+1 is released when
///   iteration k has completed every task).
///
///     Workload w = stream_workload(30.0, 1000);  // 30 fps, 1000 frames, drop when busy
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "sim/core/json_access.hpp"

namespace coinfer {

enum class WorkloadKind { Single, Stream, Training };
enum class DropPolicy { DropWhenBusy, Queue };
enum class Arrivals { Periodic, Poisson };

struct Workload {
  WorkloadKind kind = WorkloadKind::Single;
  double rate_fps = 0.0;    ///< stream
  std::size_t frames = 0;   ///< stream: frame count (0: use duration_s)
  double duration_s = 0.0;  ///< stream: release frames during this long (when frames == 0)
  double deadline_s = std::numeric_limits<double>::infinity();
  DropPolicy policy = DropPolicy::DropWhenBusy;
  std::size_t iterations = 0;  ///< training
  double start_s = 0.0;
  std::size_t max_in_flight = 0;           ///< stream: admitted, uncompleted frames at most (0: unbounded)
  std::size_t queue_capacity = 0;          ///< stream, policy queue: waiting frames at most (0: unbounded)
  Arrivals arrivals = Arrivals::Periodic;  ///< stream
  std::uint64_t seed = 0;                  ///< stream, Poisson arrivals: seeds the gaps

  /// Number of frames (or iterations) the workload releases (a Poisson stream given by
  /// duration_s: as many as its draws release before the duration ends).
  std::size_t frame_count() const;
  /// Release time of frame k for single and periodic stream workloads: start_s + k / rate_fps.
  /// A Poisson stream's are drawn in order: ReleaseClock.
  double release_s(std::size_t k) const;
};

/// The release times of a workload's frames, in order: `next()` gives frame 0's, then frame 1's...
/// Periodic: Workload::release_s(k). Poisson: start_s plus a running sum of gaps -ln(1 - u) /
/// rate_fps, u uniform in [0, 1) from the top 53 bits of mt19937_64(seed) (Rng's engine).
class ReleaseClock {
 public:
  explicit ReleaseClock(const Workload& workload);
  double next();

 private:
  const Workload* w_;
  std::size_t k_ = 0;
  double t_ = 0.0;
  std::mt19937_64 engine_;
};

Workload single_workload();
Workload stream_workload(double rate_fps, std::size_t frames, DropPolicy policy = DropPolicy::DropWhenBusy,
                         double deadline_s = std::numeric_limits<double>::infinity());
Workload training_workload(std::size_t iterations);

/// JSON form: {"kind": "single"} | {"kind": "stream", "rate_fps": 30, "frames": 1000 (or
/// "duration_s": 10), "policy": "drop"|"queue", "deadline_s": 0.1, "start_s": 0, "max_in_flight": 7,
/// "queue_capacity": 1} |
/// {"kind": "training", "iterations": 100}; a stream may add "arrivals": "periodic"|"poisson". Throws
/// `InputError` naming `path`. Ranges: start_s, duration_s, deadline_s in [0, 1e9] s (deadline > 0), rate_fps
/// in [1e-6, 1e6], frames and iterations in [1, 1e8] (also when derived from duration_s), the last release at
/// most 1e9 s, max_in_flight and queue_capacity in [1, 1e6] (queue_capacity only with policy queue).
Workload workload_from_json(const Json& json, const std::string& path = "workload");
Json workload_to_json(const Workload& workload);

}  // namespace coinfer
