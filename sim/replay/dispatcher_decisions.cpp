// Decision points of the replay (Scheduler::on_plan_end / take_decisions, scheduler.hpp): a frame
// whose plan variant ended may finish, continue with another variant, or wait for the scheduler;
// and what the devices measure of their own transfers (SchedulerView::measured_links), completed
// and in flight.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/replay/dispatcher.hpp"

namespace coinfer::replay {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

// Without a scheduler a frame ends with its plan; with one, the scheduler says what follows.
void Dispatcher::plan_ended(std::size_t k) {
  FrameState& f = frame_state(k);
  f.plan_end_s = now();
  if (in_.scheduler == nullptr) {
    finish_frame(k, f.plan_end_s);
    return;
  }
  apply_continuation(k, in_.scheduler->on_plan_end(k, view(k)));
}

void Dispatcher::apply_continuation(std::size_t k, const Continuation& c) {
  FrameState& f = frame_state(k);
  switch (c.kind) {
    case Continuation::Kind::Finish:
      if (f.held) --held_;
      f.held = false;
      finish_frame(k, f.plan_end_s);
      return;
    case Continuation::Kind::Run:
      if (f.held) --held_;
      f.held = false;
      start_continuation(k, c);
      return;
    case Continuation::Kind::Hold:
      if (f.held) return;
      if (!std::isfinite(in_.workload->deadline_s))
        throw Error(
            fmt::format("scheduler '{}' held frame {}, but the workload has no deadline to end the wait",
                        in_.scheduler->name(), k));
      f.held = true;
      ++held_;
      add_timer(out_.frames[k].release_s + in_.workload->deadline_s, TimerKind::HoldExpiry, k);
      return;
  }
}

void Dispatcher::start_continuation(std::size_t k, const Continuation& c) {
  if (c.variant >= in_.plans->size())
    throw Error(fmt::format("scheduler '{}' continued frame {} with variant {} of {}", in_.scheduler->name(),
                            k, c.variant, in_.plans->size()));
  const CompiledPlan& plan = (*in_.plans)[c.variant];
  FrameState& f = frame_state(k);
  f.variant = c.variant;
  f.continuing = true;
  f.tasks_left = plan.tasks.size();
  f.first_stage_left = 0;
  f.pending.resize(plan.tasks.size());
  for (std::size_t i = 0; i < plan.tasks.size(); ++i)
    f.pending[i] = static_cast<std::uint32_t>(plan.tasks[i].deps.size());
  f.bytes.clear();
  for (const auto& [id, bytes] : c.transfer_bytes) {
    std::size_t i = 0;
    while (i < plan.tasks.size() && plan.plan->tasks[i].id != id) ++i;
    if (i == plan.tasks.size() || plan.tasks[i].kind != TaskKind::Transfer || !(bytes >= 0.0) ||
        !std::isfinite(bytes))
      throw Error(fmt::format("scheduler '{}' set {} bytes for '{}', which is no transfer of variant {}",
                              in_.scheduler->name(), bytes, id, c.variant));
    if (f.bytes.empty()) f.bytes.assign(plan.tasks.size(), kNaN);
    f.bytes[i] = bytes;
  }
  out_.frames[k].variant = static_cast<std::uint32_t>(c.variant);
  for (auto e : plan.entries) make_ready({k, e});
}

bool Dispatcher::is_held(std::size_t k) const {
  if (k < live_base_ || k >= live_base_ + live_.size()) return false;
  const FrameState* f = live_[k - live_base_];
  return f != nullptr && f->held;
}

// The deadline of a held frame passed: its answer so far stands.
void Dispatcher::on_hold_expiry(std::size_t k) {
  if (is_held(k)) apply_continuation(k, Continuation::finish());
}

void Dispatcher::poll_scheduler() {
  if (in_.scheduler == nullptr || held_ == 0) return;
  for (const auto& [k, c] : in_.scheduler->take_decisions(view(resolved_))) {
    if (!is_held(k))
      throw Error(
          fmt::format("scheduler '{}' decided on frame {}, which is not held", in_.scheduler->name(), k));
    if (c.kind == Continuation::Kind::Hold) continue;
    apply_continuation(k, c);
  }
}

// The sender times its transfer from start to arrival and takes out the route's latency.
void Dispatcher::measure_transfer(const Transfer& x, double end_s) {
  const double duration_s = end_s - x.comm_start_s - x.route->latency_s;
  if (!(duration_s > 0.0)) return;
  const double rate_bps = 8.0 * x.bytes / duration_s;
  for (auto l : x.route->links) {
    MeasuredLink& m = measured_[l];
    m.ewma_rate_bps = m.transfers == 0
                          ? rate_bps
                          : kMeasuredEwmaWeight * rate_bps + (1.0 - kMeasuredEwmaWeight) * m.ewma_rate_bps;
    ++m.transfers;
    m.last_bytes = x.bytes;
    m.last_duration_s = duration_s;
    m.last_rate_bps = rate_bps;
    m.last_end_s = end_s;
  }
}

// What each sender knows of its transfers in flight: per link, how many, and for the one sending
// the longest (the first slot on a tie) its size, the bytes SimGrid has moved (a restarted flow's
// comm holds the bytes left), time since it started sending and its route's latency.
void Dispatcher::add_in_flight(std::vector<MeasuredLink>& links) const {
  const double t = now();
  for (const Transfer& x : transfers_) {
    if (!x.in_use || !x.comm) continue;
    const double elapsed_s = t - x.comm_start_s;
    const double delivered = std::clamp(x.bytes - x.comm->get_remaining(), 0.0, x.bytes);
    for (auto l : x.route->links) {
      MeasuredLink& m = links[l];
      if (m.in_flight++ > 0 && !(elapsed_s > m.oldest_elapsed_s)) continue;
      m.oldest_bytes = x.bytes;
      m.oldest_delivered_bytes = delivered;
      m.oldest_elapsed_s = elapsed_s;
      m.oldest_latency_s = x.route->latency_s;
    }
  }
}

void Dispatcher::record_score(std::size_t k) {
  if (in_.scheduler == nullptr) return;
  const double score = in_.scheduler->frame_score(k, out_.frames[k]);
  if (std::isnan(score)) return;
  if (out_.frame_scores.empty()) out_.frame_scores.assign(frame_count_, kNaN);
  out_.frame_scores[k] = score;
}

}  // namespace coinfer::replay
