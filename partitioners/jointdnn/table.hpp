#pragma once
/// JointDNN's lookup table ([JointDNN §2.4.2]: "the optimal schedule for each range of
/// bandwidth ... can be stored in a table on the mobile"; the paper never evaluates it). With
/// `table: {uplink_mbps: [...], downlink_mbps: [...]}` the `jointdnn` partitioner solves the
/// problem once per grid cell (uplink x downlink), costing every crossing at the cell's rates, and
/// returns the plan variants
///
///   variant 0:             the static plan, solved at the network's nominal rates;
///   variant 1 + u * D + d: the cell (uplink_mbps[u], downlink_mbps[d]), D = downlink_mbps.size().
///
/// Every cell has its own variant, even when two cells share a schedule (the mapping stays a plain
/// formula). Each variant carries its `TableFacts` (table_facts.hpp): the rates it was solved for,
/// its analytic cost, its cell and the platform indices of the mobile, the cloud and the network.
/// The `jointdnn-table` scheduler reads them and picks a variant per frame from the phone's
/// measured rates.
///
/// Grid rules (InputError at `partitioner.table...`): both lists non-empty, rates > 0 Mbps, strictly
/// increasing; at most 1024 cells. A cell whose maxima cannot be met fails as the plain solve does,
/// with the cell named.
#include <string>
#include <vector>

#include "partitioners/jointdnn/scenario_problem.hpp"
#include "sim/core/json_access.hpp"

namespace coinfer::jointdnn {

struct BandwidthGrid {
  std::vector<double> uplink_bps;    ///< increasing
  std::vector<double> downlink_bps;  ///< increasing
};

/// Parses `{uplink_mbps: [...], downlink_mbps: [...]}`; `path` names the object in errors.
BandwidthGrid parse_bandwidth_grid(const Json& table, const std::string& path);

/// Variant 0 then one variant per cell, as the file comment describes.
std::vector<Plan> table_variants(const PartitionContext& context, const ScenarioSetup& setup,
                                 const BandwidthGrid& grid, const std::string& name);

}  // namespace coinfer::jointdnn
