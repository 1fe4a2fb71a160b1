#include "partitioners/builtin.hpp"

#include "partitioners/adalearner/register.hpp"
#include "partitioners/baseline/baseline.hpp"

#include "partitioners/jointdnn/register.hpp"
#include "partitioners/modnn/modnn_partitioner.hpp"
#include "partitioners/modnn/register.hpp"
#include "partitioners/pipeline/pipeline_partitioner.hpp"
#include "partitioners/split_dp/register.hpp"

namespace coinfer {

void register_partitioner_solvers(SolverRegistry& registry) {
  (void)registry;
  // One line per algorithm family, e.g. register_jointdnn_solvers(registry);
  register_split_dp_solvers(registry);
  register_jointdnn_solvers(registry);
  register_modnn_solvers(registry);
}

void register_builtin_partitioners(PartitionerRegistry& registry) {
  register_baseline_partitioners(registry);
  register_modnn_partitioners(registry);
  register_jointdnn_partitioners(registry);
  register_pipeline_partitioners(registry);
  register_adalearner_partitioners(registry);
}

}  // namespace coinfer
