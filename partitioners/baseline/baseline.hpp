#pragma once
/// The two baselines every comparison starts from.
/// - `local`: every layer on one device (`device`, default the scenario's source).
/// - `remote`: upload the input from the source to `server` (default the first device whose
///   kind is a server or desktop), run every layer there, download the output back
///   (`network`: which network to use, default the first reaching both).
/// - `plan`: a plan JSON file (`file`, relative to the scenario), replayed as it is; checked
///   against the platform (devices, networks, DAG) before the run.
#include "sim/scenario/partitioner.hpp"

namespace coinfer {

void register_baseline_partitioners(PartitionerRegistry& registry);

/// Plan of the whole model on `device`. Example: `local_plan(ctx, "nexus5")`.
Plan local_plan(const PartitionContext& context, const std::string& device);
/// Plan of upload, compute on `server`, download. Example: `remote_plan(ctx, "gpu", "lte")`.
Plan remote_plan(const PartitionContext& context, const std::string& server, const std::string& network);

}  // namespace coinfer
