// The CBO runtime schedulers' decisions (cbo_runtime.hpp): what follows a frame's local pass, its
// upload and its service; Algorithm 1 over the pool of undecided frames; scores and summary.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "schedulers/cbo/cbo_runtime_state.hpp"
#include "sim/core/error.hpp"

namespace coinfer::cbo {

void RuntimeScheduler::check_frame(std::size_t k, const SchedulerView& view) const {
  if (!s_->planned) throw Error("cbo scheduler: plan_variants was not called before the run");
  if (k >= s_->streamed())
    throw InputError("", "workload.frames",
                     fmt::format("the trace {} streams {} frames after the {} calibration frames; frame {} "
                                 "has none (at most {} frames)",
                                 params_.trace_file, s_->streamed(), s_->n_train, k, s_->streamed()));
  if (!std::isfinite(view.deadline_s))
    throw InputError("", "workload.deadline_s",
                     "the cbo schedulers need a per-frame deadline (T = 200 ms in the paper)");
}

// What the phone believes its uplink carries: the measured EWMA over its recent uploads (the prior
// before the first), or the true rate with `oracle`.
double RuntimeScheduler::bandwidth_bps(const SchedulerView& view) const {
  State& s = *s_;
  if (s.uplink_index < 0) {
    const auto& names = *view.link_names;
    const auto it = std::find(names.begin(), names.end(), s.uplink_link);
    if (it == names.end())
      throw Error(fmt::format("cbo scheduler: no link '{}' in the replay", s.uplink_link));
    s.uplink_index = it - names.begin();
  }
  const auto i = static_cast<std::size_t>(s.uplink_index);
  if (params_.oracle) return view.link_rates_bps[i];
  const MeasuredLink& m = view.measured_links[i];
  return m.transfers > 0 && m.ewma_rate_bps > 0 ? m.ewma_rate_bps : s.initial_bps;
}

// The DP's timing: arrival = release + stage 1, deadline = T - stage 1, so that on time means the
// answer is back by release + T (cbo_problem.hpp).
Problem RuntimeScheduler::base_problem(const SchedulerView& view) const {
  Problem p;
  p.server_accuracy = s_->server_accuracy;
  p.bandwidth_bps = bandwidth_bps(view);
  p.server_time_s = params_.server_ms / 1e3;
  p.latency_s = s_->return_s;
  p.deadline_s = view.deadline_s - s_->stage1_s;
  return p;
}

Frame RuntimeScheduler::problem_frame(std::size_t k, const SchedulerView& view) const {
  const State& s = *s_;
  Frame f;
  f.arrival_s = view.frames[k].release_s + s.stage1_s;
  f.confidence = s.order_key[k];
  f.local_accuracy = s.local_accuracy[k];
  for (std::size_t r = 0; r < s.resolutions; ++r)
    f.sizes_bits.push_back(8.0 * s.size_bytes(k, r, params_.size_scale));
  return f;
}

Continuation RuntimeScheduler::upload(std::size_t k, int r) {
  State& s = *s_;
  s.decision[k] = r;
  s.uplink_busy = true;
  const double bytes = s.size_bytes(k, static_cast<std::size_t>(r), params_.size_scale);
  s.offloaded_bytes += bytes;
  ++s.offloaded;
  return Continuation::run(1 + static_cast<std::size_t>(r), {{"upload", bytes}});
}

// Server: the largest resolution whose upload at the believed rate fits in one frame interval and
// leaves the answer on time (T^o + L after the upload, by the deadline); the smallest when none does.
Continuation RuntimeScheduler::server_decision(std::size_t k, const SchedulerView& view) {
  const auto frames = view.frames;
  const double interval_s =
      frames.size() > 1 ? frames[1].release_s - frames[0].release_s : std::numeric_limits<double>::infinity();
  const double budget_s =
      std::min(interval_s, view.deadline_s - s_->stage1_s - params_.server_ms / 1e3 - s_->return_s);
  const double rate = bandwidth_bps(view);
  int best = 0;
  for (std::size_t r = 0; r < s_->resolutions; ++r)
    if (8.0 * s_->size_bytes(k, r, params_.size_scale) / rate <= budget_s) best = static_cast<int>(r);
  return upload(k, best);
}

Continuation RuntimeScheduler::on_plan_end(std::size_t k, const SchedulerView& view) {
  check_frame(k, view);
  State& s = *s_;
  const std::size_t variant = view.frames[k].variant, R = s.resolutions;
  if (variant >= 1 && variant <= R) {  // the upload ended: the uplink is free, the server works
    s.uplink_busy = false;
    s.dirty = true;
    return Continuation::run(R + variant);
  }
  if (variant > R) {  // served, or the compressed model finished on the CPU
    if (variant == 2 * R + 1) s.cpu_busy = false;
    return Continuation::finish();
  }
  switch (mode_) {
    case Mode::Local:
      return Continuation::finish();
    case Mode::Threshold:
      if (s.order_key[k] > params_.threshold) return Continuation::finish();
      return upload(k, s.threshold_resolution);
    case Mode::Server:
      return server_decision(k, view);
    case Mode::Optimal:
      if (!s.solved) {
        Problem p = base_problem(view);  // finds the uplink's index too
        p.bandwidth_bps =
            view.link_rates_bps[static_cast<std::size_t>(s.uplink_index)];  // offline: the true rate
        for (std::size_t j = 0; j < std::min(s.streamed(), view.frames.size()); ++j) {
          Frame f = problem_frame(j, view);
          if (params_.optimal_knows_answers) {
            f.local_accuracy = s.frame(j).correct;
            for (auto c : s.frame(j).server_correct) f.server_accuracy.push_back(c);
          }
          p.frames.push_back(std::move(f));
        }
        const OptimalSolution sol = solve_optimal(p);
        s.decision = sol.decisions;
        s.optimal_model_accuracy = sol.accuracy;
        s.solved = true;
      }
      if (s.decision[k] == kLocal && s.npu_first) return Continuation::finish();
      if (s.decision[k] == kLocal) {  // the NPU answers it after all
        s.decision[k] = kLocalAfter;
        return Continuation::run(2 * R + 1);
      }
      s.queue.push_back(k);
      return Continuation::hold();
    case Mode::Compress:
      if (!s.cpu_busy && s.cpu_s <= view.deadline_s) {
        s.cpu_busy = true;
        s.decision[k] = kLocalAfter;
        return Continuation::run(2 * R + 1);
      }
      [[fallthrough]];
    case Mode::Cbo:
    case Mode::CboWithout:
    case Mode::FastVa:
      s.pool.push_back(k);
      s.dirty = true;
      return Continuation::hold();
  }
  return Continuation::finish();
}

std::vector<std::pair<std::size_t, Continuation>> RuntimeScheduler::take_decisions(
    const SchedulerView& view) {
  if (mode_ == Mode::Optimal) return decide_optimal(view);
  if (mode_ == Mode::Local || mode_ == Mode::Server || mode_ == Mode::Threshold) return {};
  return decide_online(view);
}

std::vector<std::pair<std::size_t, Continuation>> RuntimeScheduler::decide_optimal(
    const SchedulerView& view) {
  (void)view;
  State& s = *s_;
  if (s.uplink_busy || s.queue.empty()) return {};
  const auto k = s.queue.front();
  s.queue.pop_front();
  return {{k, upload(k, s.decision[k])}};
}

// Algorithm 1 over the pool, uplink free from now; frames that can no longer be on time at any
// resolution keep their local answer now.
std::vector<std::pair<std::size_t, Continuation>> RuntimeScheduler::decide_online(const SchedulerView& view) {
  State& s = *s_;
  std::vector<std::pair<std::size_t, Continuation>> out;
  if (s.uplink_busy || s.pool.empty() || !s.dirty) return out;
  s.dirty = false;
  Problem p = base_problem(view);
  p.uplink_free_at_s = view.now_s;
  std::vector<std::size_t> pool;
  for (const auto k : s.pool) {
    if (!std::isnan(view.frames[k].end_s)) continue;  // its deadline passed: the replay closed it
    Frame f = problem_frame(k, view);
    if (view.now_s + p.server_time_s + p.latency_s > f.arrival_s + p.deadline_s) {
      out.emplace_back(k, Continuation::finish());
      continue;
    }
    p.frames.push_back(std::move(f));
    pool.push_back(k);
  }
  s.pool = pool;
  if (p.frames.empty()) return out;
  const OnlineSolution sol = solve_online(p);
  ++s.runs;
  DecisionLog entry;
  if (!sol.offload.empty()) {
    const auto k = pool[sol.offload.front()];
    s.pool.erase(std::find(s.pool.begin(), s.pool.end(), k));
    out.emplace_back(k, upload(k, sol.offload_resolutions.front()));
    entry.frame = k;
    entry.resolution = sol.offload_resolutions.front();
  }
  if (keep_log_) {
    entry.problem = std::move(p);
    entry.pool = std::move(pool);
    log_.push_back(std::move(entry));
  }
  return out;
}

double RuntimeScheduler::frame_score(std::size_t k, const FrameRecord& record) {
  State& s = *s_;
  if (k >= s.streamed()) return std::numeric_limits<double>::quiet_NaN();
  const TraceFrame& f = s.frame(k);
  const int d = s.decision[k];
  const bool on_time = !record.dropped() && record.deadline_met;
  double score = 0;
  bool miss = false;
  if (d >= 0) {
    score = on_time ? f.server_correct[static_cast<std::size_t>(d)] : (s.npu_first ? f.correct : 0);
    miss = !on_time;
  } else if (d == kLocalAfter || s.npu_first) {
    score = on_time ? f.correct : 0;
    miss = !on_time;
  } else {
    miss = true;  // server / compress frame never offloaded nor run locally: no answer
  }
  ++s.scored;
  s.score_sum += score;
  s.misses += miss ? 1 : 0;
  return score;
}

std::map<std::string, double> RuntimeScheduler::summary() const {
  const State& s = *s_;
  const double n = static_cast<double>(std::max<std::size_t>(s.scored, 1));
  std::map<std::string, double> out{{"accuracy", s.score_sum / n},
                                    {"offload_fraction", static_cast<double>(s.offloaded) / n},
                                    {"offloaded_bytes", s.offloaded_bytes},
                                    {"deadline_misses", static_cast<double>(s.misses)},
                                    {"frames_scored", static_cast<double>(s.scored)},
                                    {"decisions", static_cast<double>(s.runs)},
                                    {"raw_ece", s.calibration_error.raw_ece},
                                    {"raw_mce", s.calibration_error.raw_mce},
                                    {"calibration_ece", s.calibration_error.ece},
                                    {"calibration_mce", s.calibration_error.mce}};
  if (mode_ == Mode::Optimal) out["model_accuracy"] = s.optimal_model_accuracy;
  return out;
}

}  // namespace coinfer::cbo
