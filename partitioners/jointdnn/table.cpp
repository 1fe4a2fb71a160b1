#include "partitioners/jointdnn/table.hpp"

#include <fmt/format.h>

#include "partitioners/jointdnn/table_facts.hpp"
#include "sim/core/error.hpp"
#include "sim/platform/platform.hpp"

namespace coinfer::jointdnn {
namespace {

constexpr std::size_t kMaxCells = 1024;

std::vector<double> grid_axis(const Json& table, const char* key, const std::string& path) {
  const auto mbps = json_number_array(table, key, path, -1, -1e308, 1e6);
  const auto at = fmt::format("{}.{}", path, key);
  if (mbps.empty()) throw InputError("", at, "expected at least one rate (Mbps)");
  std::vector<double> bps;
  for (std::size_t i = 0; i < mbps.size(); ++i) {
    if (!(mbps[i] > 0.0))
      throw InputError("", fmt::format("{}[{}]", at, i),
                       fmt::format("expected a rate > 0 Mbps, got {}", mbps[i]));
    if (i > 0 && !(mbps[i] > mbps[i - 1]))
      throw InputError("", fmt::format("{}[{}]", at, i),
                       fmt::format("rates must increase strictly; {} follows {}", mbps[i], mbps[i - 1]));
    bps.push_back(mbps[i] * 1e6);
  }
  return bps;
}

// The platform index of `name`, for the variant's facts.
std::size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return i;
  throw Error(fmt::format("jointdnn table: '{}' vanished from the platform", name));
}

}  // namespace

BandwidthGrid parse_bandwidth_grid(const Json& table, const std::string& path) {
  if (!table.is_object())
    throw InputError("", path, "expected {uplink_mbps: [rates], downlink_mbps: [rates]}");
  json_reject_unknown_keys(table, path, {"uplink_mbps", "downlink_mbps"});
  BandwidthGrid grid{grid_axis(table, "uplink_mbps", path), grid_axis(table, "downlink_mbps", path)};
  const auto cells = grid.uplink_bps.size() * grid.downlink_bps.size();
  if (cells > kMaxCells)
    throw InputError("", path, fmt::format("{} cells; at most {} (each is one solve)", cells, kMaxCells));
  return grid;
}

std::vector<Plan> table_variants(const PartitionContext& ctx, const ScenarioSetup& setup,
                                 const BandwidthGrid& grid, const std::string& name) {
  std::vector<std::string> devices, networks;
  for (const auto& d : ctx.platform.devices) devices.push_back(d.name);
  for (const auto& n : ctx.platform.networks) networks.push_back(n.name);
  // One solve at the given rates (nullopt: nominal); its plan carries the cell in its facts.
  const auto solve = [&](std::optional<double> up, std::optional<double> down, int u, int d) {
    ScenarioSetup cell = setup;
    cell.uplink_bps = up;
    cell.downlink_bps = down;
    ScenarioProblem sp;
    Solution s;
    try {
      sp = build_scenario_problem(ctx, cell);
      s = solve_scenario_problem(sp, cell.solver);
    } catch (const InputError& e) {
      if (u < 0) throw;
      throw InputError(e.file(), e.path(),
                       fmt::format("table cell uplink {:g} Mbps, downlink {:g} Mbps: {}", *up / 1e6,
                                   *down / 1e6, e.message()));
    }
    Plan plan = plan_of_schedule(ctx, sp, s, u < 0 ? name : fmt::format("{}@up{}-down{}", name, u, d));
    TableFacts f;
    f.network = index_of(networks, sp.network);
    const Network& net = ctx.platform.networks[f.network];
    const bool access = net.is_access();
    f.uplink_bps = up.value_or(access ? net.uplink.rate_bps : net.link.rate_bps);
    f.downlink_bps = down.value_or(access ? net.downlink.rate_bps : net.link.rate_bps);
    f.latency_s = s.cost.latency_s;
    f.energy_j = s.cost.energy_j;
    if (u >= 0) f.cell = TableFacts::Cell{static_cast<std::size_t>(u), static_cast<std::size_t>(d)};
    f.mobile = index_of(devices, sp.mobile);
    f.cloud = index_of(devices, sp.cloud);
    plan.facts = std::make_shared<const TableFacts>(std::move(f));
    return plan;
  };
  std::vector<Plan> variants{solve(std::nullopt, std::nullopt, -1, -1)};
  for (std::size_t u = 0; u < grid.uplink_bps.size(); ++u)
    for (std::size_t d = 0; d < grid.downlink_bps.size(); ++d)
      variants.push_back(
          solve(grid.uplink_bps[u], grid.downlink_bps[d], static_cast<int>(u), static_cast<int>(d)));
  return variants;
}

}  // namespace coinfer::jointdnn
