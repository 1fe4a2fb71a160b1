#include "sim/replay/private_flows.hpp"

#include <algorithm>
#include <map>

#include "sim/core/error.hpp"

namespace coinfer::replay {

namespace {

// A flow whose remaining bytes are within this fraction of its size ended: the share's rounding
// leaves a few ulps where SimGrid, finishing equal flows together, leaves none.
constexpr double kEndedFraction = 1e-12;

}  // namespace

std::vector<char> private_links(const Topology& topology, std::span<const CompiledPlan> plans) {
  const auto& links = topology.links();
  std::vector<char> is_private(links.size(), 0);
  for (std::size_t l = 0; l < links.size(); ++l)
    is_private[l] = topology.shape(links[l].network) == Topology::Shape::Access &&
                    links[l].spec->bandwidth.kind == BandwidthModel::Kind::Constant;
  for (const auto& plan : plans)
    for (const auto& task : plan.placements)
      if (task.route != nullptr && task.route->links.size() > 1)
        for (auto l : task.route->links) is_private[l] = 0;
  return is_private;
}

PrivateFlows::PrivateFlows(const Topology& topology, std::vector<char> is_private)
    : private_(std::move(is_private)) {
  private_.resize(topology.links().size(), 0);
  sharers_.resize(private_.size());
  std::map<const LinkSpec*, std::uint32_t> rate_of;  // a network's members' links share its spec
  for (std::size_t l = 0; l < sharers_.size(); ++l) {
    const LinkSpec* spec = topology.links()[l].spec;
    const auto [it, fresh] = rate_of.try_emplace(spec, static_cast<std::uint32_t>(rates_.size()));
    if (fresh) rates_.push_back(spec->rate_bps / 8.0);
    sharers_[l].rate = it->second;
  }
}

void PrivateFlows::start(std::size_t flow, const Route& route, double bytes, double now_s) {
  if (flow >= kNoFlow) throw Error("PrivateFlows: more than 2^32 - 1 transfers in flight");
  if (flow >= flows_.size()) flows_.resize(flow + 1);
  Flow& f = flows_[flow];
  f.link = route.links[0];
  Sharers& s = sharers_[f.link];
  f.link_bytes_per_s = rates_[s.rate];
  f.bytes = f.remaining = bytes;
  f.sharing = false;
  f.live = true;
  ++f.generation;
  const double latency_end_s = now_s + route.latency_s;
  if (s.live++ == 0) {
    // Alone: what its latency's end would compute (join, then the whole rate) is known now.
    f.alone = true;
    f.since_s = latency_end_s;
    s.alone = static_cast<std::uint32_t>(flow);
    push(flow, latency_end_s + f.remaining / f.link_bytes_per_s);
    return;
  }
  f.alone = false;
  f.since_s = now_s;
  if (s.alone != kNoFlow) share(s.alone, now_s);
  push(flow, latency_end_s);
}

// As a shared flow it would have joined at its latency's end and kept its end event: by now it is
// among the sharers since then, or still in its latency, whose end is then its next event.
void PrivateFlows::share(std::size_t flow, double now_s) {
  Flow& f = flows_[flow];
  sharers_[f.link].alone = kNoFlow;
  f.alone = false;
  if (f.since_s <= now_s) {
    f.sharing = true;
    join(f.link, flow);
    return;
  }
  ++f.generation;
  push(flow, f.since_s);
}

void PrivateFlows::join(std::size_t link, std::size_t flow) {
  Sharers& s = sharers_[link];
  Flow& f = flows_[flow];
  f.prev = s.last;
  f.next = kNoFlow;
  (s.last == kNoFlow ? s.first : flows_[s.last].next) = static_cast<std::uint32_t>(flow);
  s.last = static_cast<std::uint32_t>(flow);
  ++s.count;
}

void PrivateFlows::leave(std::size_t link, std::size_t flow) {
  Sharers& s = sharers_[link];
  const Flow& f = flows_[flow];
  (f.prev == kNoFlow ? s.first : flows_[f.prev].next) = f.next;
  (f.next == kNoFlow ? s.last : flows_[f.next].prev) = f.prev;
  --s.count;
}

double PrivateFlows::share_bps(std::size_t flow) const {
  const Flow& f = flows_[flow];
  return f.link_bytes_per_s / static_cast<double>(sharers_[f.link].count);
}

void PrivateFlows::settle(std::size_t link, double now_s) {
  if (sharers_[link].count == 0) return;
  const double share = share_bps(sharers_[link].first);
  for (auto i = sharers_[link].first; i != kNoFlow; i = flows_[i].next) {
    Flow& f = flows_[i];
    f.remaining = std::max(0.0, f.remaining - (now_s - f.since_s) * share);
    f.since_s = now_s;
  }
}

void PrivateFlows::reschedule(std::size_t link, double now_s) {
  if (sharers_[link].count == 0) return;
  const double share = share_bps(sharers_[link].first);
  for (auto i = sharers_[link].first; i != kNoFlow; i = flows_[i].next) {
    ++flows_[i].generation;
    push(i, now_s + flows_[i].remaining / share);
  }
}

void PrivateFlows::push(std::size_t flow, double at_s) {
  events_.push(at_s, {flow, flows_[flow].generation});
}

bool PrivateFlows::stale(const Event& e) const {
  const Flow& f = flows_[e.flow];
  return !f.live || f.generation != e.generation;
}

double PrivateFlows::next_s() {
  while (!events_.empty() && stale(events_.top())) events_.pop();
  return events_.empty() ? std::numeric_limits<double>::infinity() : events_.top_s();
}

// Every event due by now_s, the earliest first. A latency's end adds its flow to the link's
// sharers; a flow's end removes it and every other sharer with nothing left (equal flows end
// together, as in SimGrid).
void PrivateFlows::advance(double now_s, std::vector<std::size_t>& ended) {
  while (next_s() <= now_s) {
    const double at_s = events_.top_s();
    const Event e = events_.pop();
    Flow& f = flows_[e.flow];
    const std::size_t link = f.link;
    if (f.alone) {  // its end: nothing else on the link
      f.remaining = 0.0;
      f.live = false;
      f.alone = false;
      sharers_[link].alone = kNoFlow;
      --sharers_[link].live;
      ended.push_back(e.flow);
      continue;
    }
    settle(link, at_s);
    if (!f.sharing) {
      f.sharing = true;
      f.since_s = at_s;
      join(link, e.flow);
    } else {
      f.remaining = 0.0;
    }
    const std::size_t first_ended = ended.size();
    for (auto i = sharers_[link].first; i != kNoFlow; i = flows_[i].next)
      if (flows_[i].remaining <= kEndedFraction * flows_[i].bytes) ended.push_back(i);
    std::sort(ended.begin() + static_cast<std::ptrdiff_t>(first_ended), ended.end());
    for (auto k = first_ended; k < ended.size(); ++k) {
      flows_[ended[k]].live = false;
      leave(link, ended[k]);
      --sharers_[link].live;
    }
    reschedule(link, at_s);
  }
}

double PrivateFlows::remaining(std::size_t flow, double now_s) const {
  const Flow& f = flows_[flow];
  if (f.alone)
    return now_s <= f.since_s ? f.remaining
                              : std::max(0.0, f.remaining - (now_s - f.since_s) * f.link_bytes_per_s);
  if (!f.sharing) return f.remaining;
  return std::max(0.0, f.remaining - (now_s - f.since_s) * share_bps(flow));
}

}  // namespace coinfer::replay
