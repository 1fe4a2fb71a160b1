#include "schedulers/jointdnn_table/table_scheduler.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "partitioners/jointdnn/table_facts.hpp"
#include "sim/core/error.hpp"
#include "sim/plan/plan.hpp"
#include "sim/platform/platform.hpp"
#include "sim/platform/topology.hpp"

namespace coinfer::jointdnn_table {
namespace {

using jointdnn::TableFacts;

InputError not_a_table(const std::string& why) {
  return InputError("", "scheduler.name",
                    fmt::format("jointdnn-table needs the plan variants of the jointdnn partitioner with a "
                                "`table` (partitioner.table); {}",
                                why));
}

const TableFacts& facts(const Plan& plan, std::size_t variant) {
  if (const auto* f = facts_or_null<TableFacts>(plan)) return *f;
  throw not_a_table(fmt::format("variant {} {}", variant, facts_mismatch(plan, TableFacts::kFamily)));
}

std::size_t platform_index(std::size_t index, std::size_t size, const char* what) {
  if (index >= size)
    throw not_a_table(fmt::format("variant 0's {} index {} is not in the platform", what, index));
  return index;
}

}  // namespace

ParamSchema table_param_schema() {
  return ParamSchema{
      ParamSpec::boolean("oracle", "pick on the true current rates instead of the measured ones")
          .with_default(false),
      ParamSpec::number("period_s", "decide every period_s seconds (0: at every frame release)")
          .range(0, 1e9)
          .with_default(0.0),
      ParamSpec::enumeration("pick", {"floor", "nearest"},
                             "floor: the grid rate at or below the estimate (conservative); nearest: the "
                             "closest grid rate")
          .with_default("floor"),
      ParamSpec::number("max_age_s",
                        "a direction's measurement older than this reverts to the nominal rate (0: never)")
          .range(0, 1e9)
          .with_default(0.0),
      ParamSpec::number("probe_period_s",
                        "probe a direction whose newest measurement is older than this (0: never probe)")
          .range(0, 1e9)
          .with_default(0.0),
      ParamSpec::number("probe_bytes", "size of one probe transfer, bytes").range(1, 1e9).with_default(16384),
      ParamSpec::boolean("in_flight",
                         "estimate a direction at most at the rate so far of its transfer in flight")
          .with_default(false),
      ParamSpec::number("in_flight_min_s",
                        "a transfer in flight counts once it has been sending this long, seconds")
          .range(0, 1e9)
          .with_default(0.1),
  };
}

TableParams TableParams::from_json(const Json& params) {
  TableParams p;
  p.oracle = params.at("oracle").get<bool>();
  p.period_s = params.at("period_s").get<double>();
  p.max_age_s = params.at("max_age_s").get<double>();
  p.probe_period_s = params.at("probe_period_s").get<double>();
  p.probe_bytes = params.at("probe_bytes").get<double>();
  p.in_flight = params.at("in_flight").get<bool>();
  p.in_flight_min_s = params.at("in_flight_min_s").get<double>();
  p.pick = params.at("pick").get<std::string>() == "nearest" ? Pick::nearest : Pick::floor;
  return p;
}

std::size_t pick_index(const std::vector<double>& grid, double rate_bps, Pick pick) {
  // First grid rate above the estimate; the one before it is the floor.
  const auto above =
      static_cast<std::size_t>(std::upper_bound(grid.begin(), grid.end(), rate_bps) - grid.begin());
  const std::size_t floor = above == 0 ? 0 : above - 1;
  if (pick == Pick::floor || above == 0 || above == grid.size()) return floor;
  return grid[above] - rate_bps < rate_bps - grid[floor] ? above : floor;
}

std::size_t pick_cell(const std::vector<double>& uplink_grid, const std::vector<double>& downlink_grid,
                      double uplink_bps, double downlink_bps, Pick pick) {
  return 1 + pick_index(uplink_grid, uplink_bps, pick) * downlink_grid.size() +
         pick_index(downlink_grid, downlink_bps, pick);
}

std::vector<Plan> TableScheduler::plan_variants(std::vector<Plan> partitioned, const Platform& platform) {
  if (partitioned.size() < 2) throw not_a_table(fmt::format("got {} variant(s)", partitioned.size()));
  // Rebuild the grid from the cells' facts and check the variant order of table.hpp.
  up_grid_.clear();
  down_grid_.clear();
  for (std::size_t v = 1; v < partitioned.size(); ++v) {
    const TableFacts& f = facts(partitioned[v], v);
    if (!f.cell) throw not_a_table(fmt::format("variant {} is no cell", v));
    if (f.cell->up == 0) down_grid_.push_back(f.downlink_bps);
    if (f.cell->down == 0) up_grid_.push_back(f.uplink_bps);
  }
  const std::size_t cells = up_grid_.size() * down_grid_.size();
  if (cells + 1 != partitioned.size())
    throw not_a_table(fmt::format("{} variants do not form a {} x {} grid", partitioned.size() - 1,
                                  up_grid_.size(), down_grid_.size()));
  for (std::size_t u = 0; u < up_grid_.size(); ++u)
    for (std::size_t d = 0; d < down_grid_.size(); ++d) {
      const std::size_t v = 1 + u * down_grid_.size() + d;
      const TableFacts& f = facts(partitioned[v], v);
      if (f.cell->up != u || f.cell->down != d || f.uplink_bps != up_grid_[u] ||
          f.downlink_bps != down_grid_[d])
        throw not_a_table(fmt::format("variant {} is not cell ({}, {})", v, u, d));
    }
  const TableFacts& nominal = facts(partitioned.front(), 0);
  const auto mobile = platform_index(nominal.mobile, platform.devices.size(), "mobile");
  const auto cloud = platform_index(nominal.cloud, platform.devices.size(), "cloud");
  const auto net = platform_index(nominal.network, platform.networks.size(), "network");
  const Topology topo(platform);
  const auto route_links = [&](std::size_t from, std::size_t to) {
    const Route* r = topo.route_or_null(net, from, to);
    if (r == nullptr) throw not_a_table("the network does not join the mobile and the cloud");
    std::vector<std::string> names;
    for (auto l : r->links) names.push_back(topo.links()[l].name());
    return names;
  };
  const std::string& network = platform.networks[net].name;
  const std::string& phone = platform.devices[mobile].name;
  const std::string& server = platform.devices[cloud].name;
  up_ = {};
  up_.links = route_links(mobile, cloud);
  up_.nominal_bps = nominal.uplink_bps;
  up_.probe = {network, phone, server, params_.probe_bytes};
  up_.needed = up_grid_.size() > 1;
  down_ = {};
  down_.links = route_links(cloud, mobile);
  down_.nominal_bps = nominal.downlink_bps;
  down_.probe = {network, server, phone, params_.probe_bytes};
  down_.needed = down_grid_.size() > 1;
  return partitioned;
}

void TableScheduler::resolve(Direction& dir, const SchedulerView& view) {
  if (!dir.index.empty()) return;
  const auto& names = *view.link_names;
  for (const auto& l : dir.links) {
    const auto it = std::find(names.begin(), names.end(), l);
    if (it == names.end()) throw Error(fmt::format("jointdnn-table: no link '{}' in the replay", l));
    dir.index.push_back(static_cast<std::size_t>(it - names.begin()));
  }
  dir.seen.assign(dir.index.size(), 0);
  dir.measured_at_s.assign(dir.index.size(), 0.0);
}

double TableScheduler::in_flight_rate(const MeasuredLink& m) const {
  if (!params_.in_flight || m.in_flight == 0 ||
      m.oldest_elapsed_s - m.oldest_latency_s < params_.in_flight_min_s)
    return 0.0;
  return m.in_flight_rate_bps();
}

bool TableScheduler::estimate(Direction& dir, const SchedulerView& view, double& rate_bps,
                              bool& lowered) const {
  resolve(dir, view);
  bool known = false;
  lowered = false;
  rate_bps = dir.nominal_bps;
  for (std::size_t k = 0; k < dir.index.size(); ++k) {
    const std::size_t i = dir.index[k];
    const MeasuredLink& m = view.measured_links[i];
    if (m.transfers != dir.seen[k]) {
      dir.seen[k] = m.transfers;
      dir.measured_at_s[k] = view.now_s;
    }
    const bool fresh = params_.max_age_s <= 0.0 || view.now_s - dir.measured_at_s[k] <= params_.max_age_s;
    double r = 0.0;
    const double flight_bps = params_.oracle ? 0.0 : in_flight_rate(m);
    if (params_.oracle) {
      r = view.link_rates_bps[i];
    } else if (m.transfers > 0 && m.ewma_rate_bps > 0.0 && fresh) {
      r = m.ewma_rate_bps;
      if (flight_bps > 0.0 && flight_bps < r) {
        r = flight_bps;
        lowered = true;
      }
    } else if (flight_bps > 0.0) {
      r = flight_bps;
      lowered = true;
    } else {
      continue;
    }
    rate_bps = known ? std::min(rate_bps, r) : r;  // the route's bottleneck
    known = true;
  }
  return known;
}

std::size_t TableScheduler::decide(const SchedulerView& view) {
  double up = 0.0, down = 0.0;
  bool up_lowered = false, down_lowered = false;
  const bool up_known = estimate(up_, view, up, up_lowered);
  const bool down_known = estimate(down_, view, down, down_lowered);
  if (up_lowered || down_lowered) lowered_ += 1;
  const std::size_t v = up_known || down_known ? pick_cell(up_grid_, down_grid_, up, down, params_.pick) : 0;
  decisions_ += 1;
  if (up_known || down_known) measured_ += 1;
  if (v != last_) changes_ += 1;
  last_ = v;
  return v;
}

FrameDecision TableScheduler::on_frame(const SchedulerView& view) {
  if (params_.period_s > 0.0) return {};
  return {decide(view), false};
}

std::optional<std::size_t> TableScheduler::on_period(const SchedulerView& view) { return decide(view); }

// The newest sign of the direction's rate: the oldest of its links' last completed transfers (a
// route's estimate needs them all), or the last probe asked for when that is newer.
bool TableScheduler::stale(const Direction& dir, const SchedulerView& view) const {
  double newest = std::numeric_limits<double>::infinity();
  for (auto i : dir.index) {
    const MeasuredLink& m = view.measured_links[i];
    newest = std::min(newest, m.transfers > 0 ? m.last_end_s : -std::numeric_limits<double>::infinity());
  }
  return view.now_s - std::max(newest, dir.probed_at_s) >= params_.probe_period_s;
}

std::vector<ProbeRequest> TableScheduler::take_probes(const SchedulerView& view) {
  std::vector<ProbeRequest> probes;
  if (params_.oracle || params_.probe_period_s <= 0.0) return probes;
  for (Direction* dir : {&up_, &down_}) {
    resolve(*dir, view);
    if (!dir->needed || !stale(*dir, view)) continue;
    dir->probed_at_s = view.now_s;
    probes_ += 1;
    probes.push_back(dir->probe);
  }
  return probes;
}

std::map<std::string, double> TableScheduler::summary() const {
  std::map<std::string, double> s = {
      {"table_decisions", decisions_}, {"table_changes", changes_}, {"table_measured_decisions", measured_}};
  if (params_.probe_period_s > 0.0 && !params_.oracle) s["table_probes"] = probes_;
  if (sees_in_flight()) s["table_in_flight_decisions"] = lowered_;
  return s;
}

}  // namespace coinfer::jointdnn_table
