#pragma once
/// The CBO system of Tan & Cao (Fig. 8) and its baselines (sec. V-A) as runtime schedulers over a
/// per-frame trace (frame_trace.hpp): `cbo`, `cbo-wo`, `fastva`, `cbo-local`, `cbo-server`,
/// `cbo-compress`, `cbo-optimal`, and `cbo-threshold` (the fixed threshold of the paper's Figs.
/// 6-7). One class, one `Mode` per name; registered by register_cbo_schedulers (register.hpp).
///
/// The trace is split in file order: the first `calibration_fraction` of its frames train the
/// calibrator and give the accuracies the schedulers plan with (A^npu for FastVA, A^o_r per
/// resolution, like the paper's Fig. 10 measured beforehand); the rest are the video the workload
/// streams (frame k of the workload = trace frame n_train + k).
///
/// Plan variants (built by `plan_variants` from the partitioner's plan and the platform):
///   0            stage 1: the partitioner's plan (the local model on `device`, e.g. AlexNet on the
///                NPU), then for `cbo` only `calibrate` (`calibration_ms` on `device`); for `cbo-server`,
///                `cbo-compress` and `cbo-optimal` a zero-time `capture` on `device` instead (they decide
///                before any local pass)
///   1 .. R       `upload`: the frame from `device` to `server` at resolution r (per-frame size
///                from the trace x `size_scale`, set per frame)
///   R+1 .. 2R    `serve` at resolution r: `infer` (`server_ms` on `server`), then `result`
///                (`result_bytes`) back to `device`
///   2R+1         `cbo-compress`: the partitioner's plan (on `cpu_device`) with durations x
///                `local_time_scale`; `cbo-optimal`: the partitioner's plan (the NPU), for the frames it
///                keeps local
/// A frame's record names the last variant it ran (frames.csv: 0 local, R+1+r served at r,
/// 2R+1 local model after the decision).
///
/// Decisions (after stage 1, Scheduler::on_plan_end; uploads one at a time, as Algorithm 1 plans):
/// - cbo / cbo-wo / fastva: the frame joins the pool of frames processed locally and not yet
///   decided (held). Whenever the uplink is free and the pool changed, Algorithm 1
///   (`cbo::solve_online`) runs over the pool with the bandwidth the phone measured on its own
///   recent uploads (SchedulerView::measured_links, EWMA; before the first one
///   `initial_bandwidth_mbps`, by default the uplink's nominal rate, which a phone reads from its
///   link; `oracle: true` uses the true rate), and the first frame of its upload order (the one at the
///   threshold theta) is uploaded at the resolution the DP gave it. Frames never chosen keep their
///   local answer at their deadline. A^npu: cbo the calibrated confidence (`calibration`), cbo-wo
///   the raw confidence, fastva the mean NPU accuracy of the calibration frames for every frame (our
///   reading of FastVA [4]: the same deadline-constrained accuracy maximisation without per-frame
///   confidence; ties keep arrival order).
/// - cbo-local: every frame keeps the NPU answer.
/// - cbo-threshold (Figs. 6-7 of the paper): a fixed threshold; a frame whose confidence (calibrated
///   with `calibration` when `calibrated`, the calibration step then timed as in cbo) is <= `threshold`
///   is uploaded at once at `resolution_px` (default: the largest), the others keep the NPU answer.
/// - cbo-server: every frame is uploaded at once at the largest resolution whose upload at the measured
///   bandwidth fits in one frame interval (sec. V-A) and leaves its answer on time (our addition: at
///   5 fps a 200 ms interval alone would pick 224 px frames that cannot meet T); the smallest when
///   none does.
/// - cbo-compress: no NPU; the pruned, quantized model runs on `cpu_device` (the partitioner's plan,
///   durations x `local_time_scale`, 0.5 in the seed) when the CPU is idle and its time fits the
///   deadline; other frames are offloaded as FastVA does, with no local answer (A^npu = 0).
///   The trace's NPU answers stand in for the compressed model's (the trace has no other model).
/// - cbo-optimal: offline, `cbo::solve_optimal` over all streamed frames with what the trace says
///   (each local and server answer, 1 right / 0 wrong) and the uplink's true rate, then replayed:
///   uploads may start at release (no local pass first) and the frames it keeps local run on the
///   NPU afterwards. Every other scheduler's answers are NPU or server answers of the same trace
///   with uploads starting no earlier and sharing one uplink (which serial uploads dominate), so
///   it bounds them all. With `optimal_knows: confidences` it is the paper's Optimal instead: the
///   same problem as CBO's (NPU pass and calibration first, A^npu the calibrated confidence, A^o_r
///   measured) solved offline with every future frame known; no bound on realised accuracy.
///
/// Score of a frame: the server's answer if it was offloaded and came back by its deadline, else
/// the local answer if there is one in time, else 0 (wrong). Summary: accuracy, offload_fraction,
/// offloaded_bytes, deadline_misses (offloaded frames whose answer came back late, and frames left
/// with no answer), decisions (Algorithm 1 runs), frames_scored, and Table I's calibration error on
/// the streamed frames (held out from the fit): raw_ece / raw_mce of the raw confidences,
/// calibration_ece / calibration_mce of `calibration`'s, whether or not the mode uses them.
///
/// Timing the DP sees: a frame's arrival is its release + the stage-1 critical path, its deadline
/// the workload's minus that path; T^o = `server_ms`; L = the downlink route's latency +
/// 8 `result_bytes` / its nominal rate + the uplink route's latency. With a zero-latency uplink
/// (the network's latency on the return path) the replay's times equal the model's exactly.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "schedulers/cbo/cbo_online.hpp"
#include "schedulers/cbo/frame_trace.hpp"
#include "sim/core/json_access.hpp"
#include "sim/core/param_schema.hpp"
#include "sim/workload/scheduler.hpp"

namespace coinfer::cbo {

enum class Mode { Cbo, CboWithout, FastVa, Local, Server, Compress, Optimal, Threshold };

/// The registered name of a mode ("cbo", "cbo-wo", ...).
std::string mode_name(Mode mode);

struct RuntimeParams {
  std::string trace_file;
  std::string device = "phone", server = "server", network, cpu_device = "phone_cpu";
  std::string calibration = "platt";
  double calibration_fraction = 0.5;
  double calibration_ms = 8, server_ms = 37, result_bytes = 100;
  double size_scale = 1, local_time_scale = 1;
  double initial_bandwidth_mbps = 0;  ///< 0: the uplink's nominal rate
  bool oracle = false;
  double threshold = 0.5;             ///< cbo-threshold
  bool calibrated = true;             ///< cbo-threshold
  int resolution_px = 0;              ///< cbo-threshold: offload resolution (0: the trace's largest)
  bool optimal_knows_answers = true;  ///< optimal: `optimal_knows: answers` (else `confidences`)

  /// Reads the resolved scheduler parameters (schema: runtime_param_schema()).
  static RuntimeParams from_json(const Json& params);
};

/// One Algorithm 1 run: its input and what the scheduler did with it (tests compare the two).
struct DecisionLog {
  Problem problem;
  std::vector<std::size_t> pool;  ///< workload frame of each problem frame
  std::size_t frame = 0;          ///< the frame uploaded (valid when offloaded)
  int resolution = kLocal;        ///< its resolution, kLocal when the run offloaded nothing
};

class RuntimeScheduler final : public Scheduler {
 public:
  /// Reads the trace and fits the calibration; throws InputError naming the trace or parameter.
  RuntimeScheduler(Mode mode, RuntimeParams params);
  ~RuntimeScheduler() override;
  std::string name() const override { return mode_name(mode_); }
  std::vector<Plan> plan_variants(std::vector<Plan> partitioned, const Platform& platform) override;
  Continuation on_plan_end(std::size_t frame, const SchedulerView& view) override;
  std::vector<std::pair<std::size_t, Continuation>> take_decisions(const SchedulerView& view) override;
  double frame_score(std::size_t frame, const FrameRecord& record) override;
  std::map<std::string, double> summary() const override;

  /// Every Algorithm 1 run so far, when `keep_log(true)` was called (tests).
  void keep_log(bool keep) { keep_log_ = keep; }
  const std::vector<DecisionLog>& log() const { return log_; }

 private:
  struct State;
  Mode mode_;
  RuntimeParams params_;
  std::unique_ptr<State> s_;
  bool keep_log_ = false;
  std::vector<DecisionLog> log_;

  void check_frame(std::size_t k, const SchedulerView& view) const;
  double bandwidth_bps(const SchedulerView& view) const;
  Frame problem_frame(std::size_t k, const SchedulerView& view) const;
  Problem base_problem(const SchedulerView& view) const;
  Continuation upload(std::size_t k, int r);
  std::vector<std::pair<std::size_t, Continuation>> decide_online(const SchedulerView& view);
  std::vector<std::pair<std::size_t, Continuation>> decide_optimal(const SchedulerView& view);
  Continuation server_decision(std::size_t k, const SchedulerView& view);
};

/// The parameter schema every runtime CBO scheduler shares.
ParamSchema runtime_param_schema();

}  // namespace coinfer::cbo
