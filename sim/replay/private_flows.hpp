#pragma once
/// Internal to sim/replay (no SimGrid): transfers on links that one device's single-link routes
/// alone cross, kept outside SimGrid.
///
/// A phone's own uplink and downlink to its cell's base carry only that phone's transfers, each on
/// a route of that one link. SimGrid's CM02 model, as the replay configures it (simulate.cpp: no
/// cross traffic, no TCP window bound), shares such a link equally among the transfers past their
/// latency: a transfer waits its route's latency, then takes rate / n while n transfers share the
/// link. PrivateFlows computes exactly that, so these links and their endpoints' interface hosts
/// need not exist in SimGrid: a population of phones on their own access links costs SimGrid
/// nothing per phone (a SimGrid host and two links are 12 KB), and a frame's transfers cost no
/// SimGrid action. SimOptions::private_links_in_simgrid keeps them in SimGrid (the tests compare
/// the two).
///
/// A flow that starts on a link carrying no other is alone there until another starts: its end is
/// known at its start (its latency, then the link's whole rate), and it keeps a single event, its
/// end, where a shared one has two (its latency's end, then its end, moved as others come and go).
/// A second flow on the link turns it into a shared one as it would have been by then, so the
/// dates are those of the shared computation to the bit.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "sim/core/event_queue.hpp"
#include "sim/plan/compiled_plan.hpp"
#include "sim/platform/topology.hpp"

namespace coinfer::replay {

/// Per Topology link, whether it is private: of an access network (a member's uplink or downlink),
/// of constant rate, and crossed by no route of `plans` that crosses another link too (a member to
/// member transfer goes up one link and down another, and shares each with other routes' flows).
/// A link no plan uses is private: the only routes it can carry alone are its own.
std::vector<char> private_links(const Topology& topology, std::span<const CompiledPlan> plans);

class PrivateFlows {
 public:
  /// `is_private` per link (private_links; missing entries, or an empty vector: not private).
  PrivateFlows(const Topology& topology, std::vector<char> is_private);

  bool is_private(std::size_t link) const { return private_[link] != 0; }
  /// Whether `route` runs here: one link, and that link private.
  bool carries(const Route& route) const { return route.links.size() == 1 && is_private(route.links[0]); }
  /// Flow `flow` (the replay's transfer slot, reused once it ended) of `bytes` starts on `route`
  /// at `now_s`: it shares the link once the route's latency has passed.
  void start(std::size_t flow, const Route& route, double bytes, double now_s);
  /// The next date a flow's latency ends or a flow ends (infinity when none is in flight).
  double next_s();
  /// Handles every change due by `now_s`, in date order; appends the flows that ended, in the
  /// order they ended (those ending together by flow).
  void advance(double now_s, std::vector<std::size_t>& ended);
  /// Asks the processor to load what a flow's start on `link` reads (a hint: changes nothing).
  void prefetch(std::size_t link) const { __builtin_prefetch(&sharers_[link]); }
  /// Asks the processor to load flow `flow`'s record (a hint: changes nothing).
  void prefetch_flow(std::size_t flow) const { __builtin_prefetch(&flows_[flow]); }
  static constexpr std::uint32_t kNoFlow = static_cast<std::uint32_t>(-1);
  /// The flow of the next event once next_s has dropped the stale ones (kNoFlow: none).
  std::size_t next_flow() const { return events_.empty() ? std::size_t{kNoFlow} : events_.top().flow; }
  /// The bytes flow `flow` has still to deliver at `now_s` (all of them during its latency).
  double remaining(std::size_t flow, double now_s) const;

 private:
  /// One line each: a flow's event reads it and its link's Sharers, nothing else.
  struct alignas(64) Flow {
    std::size_t link = 0;
    /// Its link's rate, kept with each flow so that an event touches the link's flows only.
    double link_bytes_per_s = 0.0;
    double bytes = 0.0;
    double remaining = 0.0;
    double since_s = 0.0;  ///< when `remaining` was last brought up to date
    bool sharing = false;  ///< past its latency, among the link's Sharers
    bool live = false;
    /// Alone on its link since it started (Sharers::alone): not among the sharers, `since_s` its
    /// latency's end, `remaining` its size, its one event its end.
    bool alone = false;
    std::uint64_t generation = 0;  ///< events of older generations are stale
    std::uint32_t prev = kNoFlow;  ///< the link's sharers before and after it (Sharers)
    std::uint32_t next = kNoFlow;
  };
  static_assert(sizeof(Flow) == 64);
  /// A link's rate, and its flows past their latency, in the order they joined: a list through
  /// Flow::prev and Flow::next (where a vector each cost 24 bytes and an allocation). 24 bytes,
  /// and a flow's start reads nothing else of its link (not the Topology's link for its rate).
  struct Sharers {
    std::uint32_t rate = 0;  ///< its constant rate (a private link's is), as an index in rates_
    std::uint32_t first = kNoFlow;
    std::uint32_t last = kNoFlow;
    std::uint32_t count = 0;
    std::uint32_t live = 0;         ///< flows started on the link and not ended
    std::uint32_t alone = kNoFlow;  ///< the flow alone on it since it started (Flow::alone)
  };
  static_assert(sizeof(Sharers) == 24);
  /// A flow's latency end or end (events_ serves them by date, then in the order pushed).
  struct Event {
    std::size_t flow = 0;
    std::uint64_t generation = 0;
  };
  /// Another flow starts at `now_s` on the link flow `flow` had alone: it becomes a shared flow,
  /// in its latency or among the sharers as it would be by now.
  void share(std::size_t flow, double now_s);
  void join(std::size_t link, std::size_t flow);
  void leave(std::size_t link, std::size_t flow);
  /// The share of the link of flow `flow` each of that link's sharing flows gets.
  double share_bps(std::size_t flow) const;
  /// Brings the remaining bytes of the link's sharing flows up to `now_s` at the old share.
  void settle(std::size_t link, double now_s);
  /// New end dates for the link's sharing flows at its current share.
  void reschedule(std::size_t link, double now_s);
  void push(std::size_t flow, double at_s);
  bool stale(const Event& e) const;

  std::vector<char> private_;
  std::vector<Sharers> sharers_;  ///< per link
  std::vector<double> rates_;     ///< the links' rates in bytes/s, each once (a city's links share a few)
  std::vector<Flow> flows_;
  EventQueue<Event> events_;
  std::vector<std::size_t> touched_;  ///< advance's scratch: links whose share changed
};

}  // namespace coinfer::replay
