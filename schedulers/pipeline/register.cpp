#include "schedulers/pipeline/register.hpp"

#include "schedulers/pipeline/expected_adaptive.hpp"
#include "schedulers/pipeline/expected_throughput.hpp"
#include "schedulers/pipeline/thresholds.hpp"

namespace coinfer {

void register_pipeline_solvers(SolverRegistry& registry) {
  registry.add("pipeline-thresholds",
               "bandwidth thresholds between neighbouring compression ratios (Hu & Krishnamachari eq. 3)",
               problem_documented_in("schedulers/pipeline/thresholds.hpp"),
               solver_factory([](const Json& problem) { return solve_thresholds_json(problem); }));
  registry.add("pipeline-expected",
               "expected pipeline throughput with Gaussian link bandwidths (Hu & Krishnamachari eq. 4-6)",
               problem_documented_in("schedulers/pipeline/expected_throughput.hpp"),
               solver_factory([](const Json& problem) { return solve_expected_throughput_json(problem); }));
  registry.add("pipeline-expected-adaptive",
               "expected effective throughput with adaptive compression at one split (Hu & Krishnamachari "
               "sec. V-f: eq. 4-7 piecewise over eq. 3's thresholds)",
               problem_documented_in("schedulers/pipeline/expected_adaptive.hpp"),
               solver_factory([](const Json& problem) { return solve_adaptive_expectation_json(problem); }));
}

}  // namespace coinfer
