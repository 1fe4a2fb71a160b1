#include "partitioners/split_dp/register.hpp"

#include "partitioners/split_dp/split_dp.hpp"

namespace coinfer {

void register_split_dp_solvers(SolverRegistry& registry) {
  registry.add("split-dp",
               "layer split of a linear device pipeline maximising throughput (Hu & Krishnamachari eq. 2)",
               problem_documented_in("partitioners/split_dp/split_dp.hpp"),
               solver_factory([](const Json& problem) { return solve_split_dp_json(problem); }));
}

}  // namespace coinfer
