#pragma once
/// The `adalearner` partitioner (adalearner_plan.hpp): one training iteration of AdaLearner on a GO
/// and k worker phones. params: `workers` (int >= 1, or auto = sec. 3.5's choice over local and
/// 1..max_workers), `max_workers`, `scheme: fp32|onebit|terngrad|auto|local`, `minibatch` (128).
///
///     partitioner: {name: adalearner, workers: 4, scheme: onebit}
#include "sim/scenario/partitioner.hpp"

namespace coinfer {

/// Adds `adalearner`; throws `Error` on a duplicate name.
void register_adalearner_partitioners(PartitionerRegistry& registry);

}  // namespace coinfer
