// Warming what the next events will read. At 10,000 users each frame's release reads its user's
// records (its UserState, its frame record, its plan, its routes, its radio and links), which no
// other frame touched since the same user's previous frame, a second of simulated time and
// megabytes of other users' records ago: out of the second-level cache, each read waits for
// memory in turn, the next depending on the one before (user, then plan, then route, then link).
// The ends of its transfers and of its execution read them again tens of milliseconds later, and
// at 10,000 users the hundreds of frames in between have pushed most of them out of the
// second-level cache by then. The next release (the top of timers_), the next end of a private
// transfer (PrivateFlows' next event) and the next end of an execution (exec_ends_) are each known
// before they are due, while other events are handled, so after each event one more step of each
// chain is asked for with a prefetch, each step reading only what the step before brought in. A
// prefetch changes no result: it only makes the reads the event does anyway find their lines in
// the cache.
#include <vector>

#include "sim/replay/dispatcher.hpp"

namespace coinfer::replay {

namespace {

/// Prefetches the lines of `object`.
template <class T>
void prefetch(const T* object) {
  const auto* first = reinterpret_cast<const char*>(object);
  __builtin_prefetch(first);
  __builtin_prefetch(first + sizeof(T) - 1);
}

/// The tasks of a plan whose placements a release warms: its first ones, where its entries and
/// its first transfers are (a phone's plan: upload, compute, download).
constexpr std::size_t kWarmTasks = 4;

}  // namespace

void Dispatcher::warm_next_release() {
  if (timers_.empty() || timers_.top().kind != TimerKind::Release) return;
  Warming& w = warming_;
  if (timers_.top().ref != w.frame) {
    w = Warming{};
    w.frame = timers_.top().ref;
    w.user = timers_.top().user;
  }
  switch (w.step++) {
    case 0:  // the user, the frame's record, and what arming its next release reads
      prefetch(&users_[w.user]);
      prefetch(&out_.frames[w.frame]);
      __builtin_prefetch(&user_first_[w.user]);
      if (w.frame + 1 < out_.frames.size()) prefetch(&out_.frames[w.frame + 1]);
      break;
    case 1: {  // the plan its frames run now (its shape is shared), and its tasks' placements
      const UserState& u = users_[w.user];
      w.plan = plan_refs_[u.first_variant + u.current_variant];
      __builtin_prefetch(u.live.data());  // where the admitted frame's state goes
      // The lines of its first kWarmTasks placements (a prefetch past the array's end is harmless).
      __builtin_prefetch(w.plan.placements);
      __builtin_prefetch(reinterpret_cast<const char*>(w.plan.placements) +
                         kWarmTasks * sizeof(TaskPlacement) - 1);
      break;
    }
    case 2:  // their routes
      w.tasks = std::min(w.plan.shape->tasks.size(), kWarmTasks);
      for (std::size_t i = 0; i < w.tasks; ++i)
        if (const Route* r = w.plan.placements[i].route) prefetch(r);
      break;
    case 3: {  // the routes' radios and links
      for (std::size_t i = 0; i < w.tasks; ++i)
        if (const Route* r = w.plan.placements[i].route) prefetch_route(*r);
      break;
    }
    default:
      break;
  }
}

void Dispatcher::prefetch_route(const Route& r) {
  radios_.prefetch(r.src_radio);
  radios_.prefetch(r.dst_radio);
  prefetch(&tally_.devices[r.src]);  // a transfer's end adds to both ends' counts
  prefetch(&tally_.devices[r.dst]);
  for (const auto l : r.links) {
    __builtin_prefetch(&tally_.links[l]);
    if (flows_.is_private(l)) flows_.prefetch(l);
  }
}

void Dispatcher::warm_next_ends() {
  flows_.next_s();  // its next event is then a live one
  if (const std::size_t slot = flows_.next_flow(); slot != PrivateFlows::kNoFlow) {
    const Transfer& x = transfers_[slot];
    EndWarming& w = flow_warming_;
    if (w.key != slot || w.generation != x.generation) {
      w = EndWarming{slot, x.generation};
      if (x.in_use && !x.probe()) {
        w.state = x.ref.state;
        w.frame = x.ref.frame;
        w.task = x.ref.task;
        w.route = x.route;
        flows_.prefetch_flow(slot);
      }
    }
    warm_end(w);
  }
  if (!exec_ends_.empty()) {
    const ExecEnd e = exec_ends_.top();
    const std::size_t key = devices_[e.device].first_unit + e.unit;
    const std::vector<TaskRef>& members = units_[key].running;
    EndWarming& w = exec_warming_;
    // A unit runs one execution at a time, and its first task says which: a frame's task runs once
    // a plan variant (the same task again is a continuation of the same live frame).
    if (members.empty() || members.front().background()) {
      w = EndWarming{};
    } else if (const TaskRef& first = members.front();
               w.key != key || w.frame != first.frame || w.task != first.task) {
      w = EndWarming{key};
      w.state = first.state;
      w.frame = first.frame;
      w.task = first.task;
    }
    warm_end(w);
  }
}

// An end reads the frame's state and record, its user, the transfer's route and what hangs off
// it, and starts the tasks that follow (their placements, routes and what hangs off those).
void Dispatcher::warm_end(EndWarming& w) {
  if (w.state == nullptr) return;
  const FrameState& f = *w.state;
  switch (w.step++) {
    case 0:
      prefetch(&f);
      prefetch(&out_.frames[w.frame]);
      if (w.route != nullptr) prefetch(w.route);
      break;
    case 1:
      __builtin_prefetch(f.pending.data());
      prefetch(&users_[f.user]);
      if (w.route != nullptr) prefetch_route(*w.route);
      for (const auto s : f.plan.shape->succs(w.task)) __builtin_prefetch(&f.plan.placements[s]);
      break;
    case 2:
      for (const auto s : f.plan.shape->succs(w.task))
        if (const Route* r = f.plan.placements[s].route) prefetch(r);
      break;
    case 3:
      for (const auto s : f.plan.shape->succs(w.task))
        if (const Route* r = f.plan.placements[s].route) prefetch_route(*r);
      break;
    default:
      break;
  }
}

}  // namespace coinfer::replay
