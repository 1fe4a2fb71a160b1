// Decision points of the replay (Scheduler::on_plan_end / take_decisions, scheduler.hpp): a frame
// whose plan variant ended may finish, continue with another variant, or wait for the scheduler
// (SchedulerPort checks the answers and keeps the holds); and what the senders know of their
// transfers in flight (SchedulerView::measured_links).
#include <algorithm>
#include <utility>

#include "sim/replay/dispatcher.hpp"

namespace coinfer::replay {

// Without a scheduler a frame ends with its plan; with one, the scheduler says what follows.
void Dispatcher::plan_ended(std::size_t k, FrameState& f) {
  f.plan_end_s = now();
  SchedulerPort& p = port(f.user);
  if (!p.active()) {
    finish_frame(users_[f.user], k, f.plan_end_s);
    return;
  }
  apply_continuation(k, p.on_plan_end(k, view(f.user, k)));
}

void Dispatcher::apply_continuation(std::size_t k, const Continuation& c) {
  SchedulerPort& p = port(user_of(k));
  switch (c.kind) {
    case Continuation::Kind::Finish:
      p.release(k);
      finish_frame(user(k), k, frame_state(k).plan_end_s);
      return;
    case Continuation::Kind::Run:
      p.release(k);
      start_continuation(k, c);
      return;
    case Continuation::Kind::Hold:
      if (p.hold(k))
        add_timer(out_.frames[k].release_s + user(k).workload().deadline_s, TimerKind::HoldExpiry, k);
      return;
  }
}

void Dispatcher::start_continuation(std::size_t k, const Continuation& c) {
  const SchedulerPort& p = port(user_of(k));
  std::vector<double> bytes = p.continuation_bytes(k, c);
  std::vector<double> seconds = p.continuation_seconds(k, c);
  const std::size_t variant = user(k).first_variant + c.variant;
  const PlanRef& plan = plan_refs_[variant];
  FrameState& f = frame_state(k);
  f.begin(variant, plan, true,
          bytes.empty() && seconds.empty()
              ? nullptr
              : std::make_unique<FrameTaskValues>(FrameTaskValues{std::move(bytes), std::move(seconds)}));
  out_.frames[k].variant = static_cast<std::uint32_t>(c.variant);
  for (auto e : plan.shape->entries()) make_ready(f, k, e);
}

// The deadline of a held frame passed: its answer so far stands.
void Dispatcher::on_hold_expiry(std::size_t k) {
  if (port(user_of(k)).is_held(k)) apply_continuation(k, Continuation::finish());
}

// Decisions apply in order: one may end the hold another names. Then the background jobs. Each
// user's scheduler in turn (a population's: O(users with a scheduler) per event).
void Dispatcher::poll_scheduler() {
  for (const std::size_t u : scheduled_) {
    SchedulerPort& p = port(u);
    if (p.holds_any()) {
      for (const auto& [k, c] : p.take_decisions(view(u, next_frame(users_[u])))) {
        p.expect_held(k);
        if (c.kind == Continuation::Kind::Hold) continue;
        apply_continuation(k, c);
      }
    }
    if (p.runs_background()) start_background(u);
  }
}

void Dispatcher::scheduler_summary() {
  if (scheduled_.size() == 1) {
    out_.scheduler_metrics = port(scheduled_.front()).summary();
    return;
  }
  std::map<std::string, std::pair<double, std::size_t>> sums;  // key -> (sum, users)
  for (const std::size_t u : scheduled_)
    for (const auto& [key, value] : port(u).summary()) {
      auto& [sum, n] = sums[key];
      sum += value;
      ++n;
    }
  for (const auto& [key, sum] : sums)
    out_.scheduler_metrics[key] = sum.first / static_cast<double>(sum.second);
}

// What each sender knows of its transfers in flight (SchedulerPort::add_in_flight): a restarted
// flow's comm holds the bytes left, so the bytes moved are its size less what SimGrid has left.
void Dispatcher::add_in_flight(std::size_t u, std::vector<MeasuredLink>& links) const {
  const double t = now();
  for (std::size_t slot = 0; slot < transfers_.size(); ++slot) {
    const Transfer& x = transfers_[slot];
    if (!x.in_use || !(x.comm || x.private_flow) || x.user != u) continue;
    const double left = x.comm ? x.comm->get_remaining() : flows_.remaining(slot, t);
    const double delivered = std::clamp(x.bytes - left, 0.0, x.bytes);
    SchedulerPort::add_in_flight(links, {x.route, x.bytes, delivered, t - x.comm_start_s});
  }
}

}  // namespace coinfer::replay
