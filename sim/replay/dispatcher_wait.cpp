// The dispatcher's event loop and how it waits (dispatcher.hpp): the activities in flight, the
// executions' end dates, the kernel signal that a comm finished, and the kernel timer that resumes
// the actor at the next timer or execution end. Each event costs O(log n) in the activities in
// flight at most, and no more than with a few when the dates come in rising runs (EventQueue's
// lanes), so the instructions a frame costs do not grow with the users.
#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/simix.hpp>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/replay/dispatcher.hpp"
#include "sim/replay/dispatcher_common.hpp"

namespace coinfer::replay {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::resource::Action;

// The event loop: activities that finished at the current date are handled before timers due
// at that date (a task ending exactly when a frame is released frees the first stage first), and
// among them the lowest index in activities_ first.
void Dispatcher::run() {
  if (frame_count_ == 0) return;
  listen_for_completions();
  // An alarm left armed would move the clock, and so the run's end, past the last event.
  struct Disarm {
    Dispatcher& d;
    ~Disarm() {
      if (d.alarm_ != nullptr) d.arm_alarm(kInf);
    }
  } disarm{*this};
  timers_.reserve(users_.size() + scheduled_.size());  // a release each, and a scheduler's period
  for (const auto& u : users_)
    if (u.frames > 0) add_release(u, first_frame(u));
  for (const std::size_t u : scheduled_)
    if (const double period_s = port(u).period_s(); period_s > 0.0)
      add_timer(users_[u].workload().start_s + period_s, TimerKind::SchedulerPeriod, u);
  while (resolved_ < frame_count_ || probes_in_flight_ > 0 || background_left_ > 0) {
    warm_next_release();
    warm_next_ends();
    const double t = now();
    trace_.rates(t);
    collect_exec_ends();
    if (!timers_.empty() && timers_.top_s() <= t + kTimeEps) {
      if (!done_.empty()) {
        on_activity_done(done_.lowest());
        poll_scheduler();
        continue;
      }
      const double time_s = timers_.top_s();
      const Timer timer = timers_.pop();
      if (timer.kind == TimerKind::SchedulerPeriod) --period_timers_;
      on_timer(timer, time_s);
      poll_scheduler();
      continue;
    }
    if (activities_.empty()) {
      // Only the scheduler's periodic calls left: they choose variants for frames to come, and none
      // will come, so the unfinished frames never end (without this, the periods would go on forever).
      if (timers_.size() == period_timers_)
        throw Error(fmt::format("replay stalled: {} frames are unfinished but nothing is running",
                                frame_count_ - resolved_));
      sg4::this_actor::sleep_until(timers_.top_s());
      continue;
    }
    if (done_.empty()) wait_for_next();
    collect_exec_ends();
    if (!done_.empty()) on_activity_done(done_.lowest());
    poll_scheduler();
  }
}

void Dispatcher::listen_for_completions() {
  self_ = sg4::Actor::self();
  // Fired in maestro for every network action of the process (one simulation per process); a
  // comm that is not ours, or one cancelled (restart_comm), is not in comm_slots_ or not FINISHED.
  sg4::Link::on_communication_state_change_cb(
      [this](simgrid::kernel::resource::NetworkAction& network_action, Action::State) {
        // NetworkAction is only declared in SimGrid's public headers; it derives from Action alone.
        const auto& action = reinterpret_cast<const Action&>(network_action);
        if (action.get_state() != Action::State::FINISHED) return;
        const auto it = comm_slots_.find(action.get_activity());
        if (it == comm_slots_.end()) return;
        done_.insert(transfers_[it->second].activity_pos);
        wake();
      });
}

void Dispatcher::wake() {
  if (!suspended_) return;
  suspended_ = false;
  self_->resume();
}

void Dispatcher::wait_for_next() {
  for (;;) {
    double next = timers_.empty() ? kInf : timers_.top_s();
    if (!exec_ends_.empty()) next = std::min(next, exec_ends_.top_s());
    next = std::min(next, flows_.next_s());
    if (next < alarm_s_) arm_alarm(next);
    suspended_ = true;
    sg4::this_actor::suspend();
    collect_exec_ends();
    // An alarm armed for a timer handled a hair early (within kTimeEps) wakes the actor for
    // nothing: it waits again, as a wait on the activities with that timer's timeout would have.
    if (!done_.empty() || (!timers_.empty() && timers_.top_s() <= now() + kTimeEps)) return;
  }
}

// Kernel timers are the kernel's: set and removed in maestro (a simcall from the actor).
void Dispatcher::arm_alarm(double at_s) {
  simgrid::kernel::actor::simcall_answered([this, at_s] {
    if (alarm_ != nullptr) alarm_->remove();
    alarm_ = nullptr;
    alarm_s_ = at_s;
    if (at_s == kInf) return;
    alarm_ = simgrid::kernel::timer::Timer::set(at_s, [this] {
      alarm_ = nullptr;
      alarm_s_ = kInf;
      wake();
    });
  });
}

void Dispatcher::collect_exec_ends() {
  const double t = now();
  while (!exec_ends_.empty() && exec_ends_.top_s() <= t) {
    const ExecEnd e = exec_ends_.pop();
    done_.insert(unit(e.device, e.unit).pos);
  }
  flows_.advance(t, flows_ended_);
  for (const auto slot : flows_ended_) done_.insert(transfers_[slot].activity_pos);
  flows_ended_.clear();
}

void Dispatcher::add_activity(sg4::CommPtr comm, Slot slot) {
  const std::size_t pos = activities_.size();
  if (slot.exec) {
    unit(slot.index, slot.unit).pos = static_cast<std::uint32_t>(pos);
  } else {
    transfers_[slot.index].activity_pos = pos;
    if (comm) comm_slots_[comm->get_impl()] = slot.index;
  }
  activities_.push_back(std::move(comm));
  slots_.push_back(slot);
}

void Dispatcher::add_exec(std::size_t device, std::size_t unit, double seconds) {
  add_activity(nullptr, {true, device, unit});
  exec_ends_.push(now() + seconds, {static_cast<std::uint32_t>(device), static_cast<std::uint32_t>(unit)});
}

void Dispatcher::remove_activity(std::size_t pos) {
  const auto last = activities_.size() - 1;
  if (activities_[pos]) comm_slots_.erase(activities_[pos]->get_impl());
  done_.erase(pos);
  if (pos != last) {
    activities_[pos] = std::move(activities_[last]);
    slots_[pos] = slots_[last];
    if (done_.erase(last)) done_.insert(pos);
    if (slots_[pos].exec)
      unit(slots_[pos].index, slots_[pos].unit).pos = static_cast<std::uint32_t>(pos);
    else
      transfers_[slots_[pos].index].activity_pos = pos;
  }
  activities_.pop_back();
  slots_.pop_back();
}

void Dispatcher::on_activity_done(std::size_t pos) {
  const Slot slot = slots_[pos];
  remove_activity(pos);
  if (slot.exec)
    on_exec_done(slot.index, slot.unit);
  else
    on_comm_done(slot.index);
}

}  // namespace coinfer::replay
