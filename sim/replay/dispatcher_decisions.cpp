// Decision points of the replay (Scheduler::on_plan_end / take_decisions, scheduler.hpp): a frame
// whose plan variant ended may finish, continue with another variant, or wait for the scheduler
// (SchedulerPort checks the answers and keeps the holds); and what the senders know of their
// transfers in flight (SchedulerView::measured_links).
#include <algorithm>
#include <utility>

#include "sim/replay/dispatcher.hpp"

namespace coinfer::replay {

// Without a scheduler a frame ends with its plan; with one, the scheduler says what follows.
void Dispatcher::plan_ended(std::size_t k) {
  FrameState& f = frame_state(k);
  f.plan_end_s = now();
  if (!port_.active()) {
    finish_frame(k, f.plan_end_s);
    return;
  }
  apply_continuation(k, port_.on_plan_end(k, view(k)));
}

void Dispatcher::apply_continuation(std::size_t k, const Continuation& c) {
  switch (c.kind) {
    case Continuation::Kind::Finish:
      port_.release(k);
      finish_frame(k, frame_state(k).plan_end_s);
      return;
    case Continuation::Kind::Run:
      port_.release(k);
      start_continuation(k, c);
      return;
    case Continuation::Kind::Hold:
      if (port_.hold(k))
        add_timer(out_.frames[k].release_s + user(k).workload().deadline_s, TimerKind::HoldExpiry, k);
      return;
  }
}

void Dispatcher::start_continuation(std::size_t k, const Continuation& c) {
  std::vector<double> bytes = port_.continuation_bytes(k, c);
  std::vector<double> seconds = port_.continuation_seconds(k, c);
  const CompiledPlan& plan = (*in_.plans)[c.variant];
  FrameState& f = frame_state(k);
  f.variant = c.variant;
  f.continuing = true;
  f.tasks_left = plan.tasks.size();
  f.first_stage_left = 0;
  f.pending.resize(plan.tasks.size());
  for (std::size_t i = 0; i < plan.tasks.size(); ++i)
    f.pending[i] = static_cast<std::uint32_t>(plan.tasks[i].deps.size());
  f.bytes = std::move(bytes);
  f.seconds = std::move(seconds);
  out_.frames[k].variant = static_cast<std::uint32_t>(c.variant);
  for (auto e : plan.entries) make_ready({k, e});
}

// The deadline of a held frame passed: its answer so far stands.
void Dispatcher::on_hold_expiry(std::size_t k) {
  if (port_.is_held(k)) apply_continuation(k, Continuation::finish());
}

// Decisions apply in order: one may end the hold another names. Then the background jobs.
void Dispatcher::poll_scheduler() {
  if (port_.holds_any()) {
    for (const auto& [k, c] : port_.take_decisions(view(resolved_))) {
      port_.expect_held(k);
      if (c.kind == Continuation::Kind::Hold) continue;
      apply_continuation(k, c);
    }
  }
  if (port_.runs_background()) start_background();
}

// What each sender knows of its transfers in flight (SchedulerPort::add_in_flight): a restarted
// flow's comm holds the bytes left, so the bytes moved are its size less what SimGrid has left.
void Dispatcher::add_in_flight(std::vector<MeasuredLink>& links) const {
  const double t = now();
  for (const Transfer& x : transfers_) {
    if (!x.in_use || !x.comm) continue;
    const double delivered = std::clamp(x.bytes - x.comm->get_remaining(), 0.0, x.bytes);
    SchedulerPort::add_in_flight(links, {x.route, x.bytes, delivered, t - x.comm_start_s});
  }
}

}  // namespace coinfer::replay
