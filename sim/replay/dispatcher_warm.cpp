// Warming the next release: at 10,000 users each frame's release reads its user's records (its
// UserState, its frame record, its plan, its routes, its radio and links), which no other frame
// touched since the same user's previous frame, a second of simulated time and megabytes of other
// users' records ago: out of the second-level cache, each read waits for memory in turn, the next
// depending on the one before (user, then plan, then route, then link). The next release is known
// before it is due (the top of timers_, while the events of frames already running are handled),
// so after each event one more step of that chain is asked for with a prefetch, each step reading
// only what the step before brought in. A prefetch changes no result: it only makes the reads the
// release does anyway find their lines in the cache.
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
  }
  switch (w.step++) {
    case 0:  // the user and the frame record
      w.user = user_of(w.frame);
      prefetch(&users_[w.user]);
      prefetch(&out_.frames[w.frame]);
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
      for (std::size_t i = 0; i < w.tasks; ++i) {
        const Route* r = w.plan.placements[i].route;
        if (r == nullptr) continue;
        radios_.prefetch(r->src_radio);
        radios_.prefetch(r->dst_radio);
        __builtin_prefetch(&tally_.devices[r->src]);
        for (const auto l : r->links) {
          __builtin_prefetch(&tally_.links[l]);
          if (flows_.is_private(l)) flows_.prefetch(l);
        }
      }
      break;
    }
    default:
      break;
  }
}

}  // namespace coinfer::replay
