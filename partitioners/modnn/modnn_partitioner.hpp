#pragma once
/// MoDNN's whole-model partitioners (modnn_plan.hpp), registered by name:
/// - `modnn`: conv stages by BODP, sparse fc layers by MSCC + FGCP, dense ones by fc-1d, the
///   number of workers at the sweet spot (minimum ET) unless `workers` forces it.
///   params (schema in modnn_partitioner.cpp, printed by `coinfer list partitioners`): workers,
///   max_workers, conv: bodp|grid2d, sparse_fc: mscc-fgcp|fc-1d, fc_sparsity (overrides every fc
///   layer's sparsity; weights are generated, sparse_weights.hpp), fc_planted_blocks, fc_block_scale,
///   seed.
/// - `bodp`: the same with conv = bodp and sparse_fc = fc-1d (MoDNN's conv partition alone).
/// - `grid2d`: the same with conv = grid2d and sparse_fc = fc-1d (the 2-D grid baseline).
///
///     partitioner: {name: bodp, workers: 4}
#include "sim/scenario/partitioner.hpp"

namespace coinfer {

/// Adds `modnn`, `bodp` and `grid2d`; throws `Error` on a duplicate name.
void register_modnn_partitioners(PartitionerRegistry& registry);

}  // namespace coinfer
