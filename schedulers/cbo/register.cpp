#include "schedulers/cbo/register.hpp"

#include "schedulers/cbo/cbo_online.hpp"
#include "schedulers/cbo/cbo_optimal.hpp"
#include "schedulers/cbo/cbo_runtime.hpp"

namespace coinfer {

void register_cbo_solvers(SolverRegistry& registry) {
  registry.add("cbo-optimal", "Tan & Cao sec. IV-C: offline optimum by solution-graph DP with dominance",
               problem_documented_in("schedulers/cbo/cbo_problem.hpp"),
               solver_factory([](const Json& problem) { return cbo::solve_optimal_json(problem); }));
  registry.add("cbo-online", "Tan & Cao Algorithm 1: confidence threshold and resolution by (t, A) DP",
               problem_documented_in("schedulers/cbo/cbo_problem.hpp"),
               solver_factory([](const Json& problem) { return cbo::solve_online_json(problem); }));
}

void register_cbo_schedulers(SchedulerRegistry& registry) {
  using cbo::Mode;
  const std::pair<Mode, const char*> modes[] = {
      {Mode::Cbo, "CBO (Tan & Cao Alg. 1) on calibrated confidences, measured uplink"},
      {Mode::CboWithout, "CBO on uncalibrated confidences (CBO-w/o)"},
      {Mode::FastVa, "FastVA as CBO reads it: Alg. 1 without per-frame confidence"},
      {Mode::Local, "every frame answered by the phone's NPU"},
      {Mode::Server, "every frame offloaded, resized to upload within one frame interval"},
      {Mode::Compress, "compressed model on the phone CPU, offloading as FastVA"},
      {Mode::Optimal, "the cbo-optimal solver over the whole trace, offline (upper bound)"},
      {Mode::Threshold, "a fixed confidence threshold, offloading at full resolution (Figs. 6-7)"}};
  for (const auto& [mode, summary] : modes)
    registry.add(cbo::mode_name(mode), summary, cbo::runtime_param_schema(), [m = mode](const Json& params) {
      return std::make_unique<cbo::RuntimeScheduler>(m, cbo::RuntimeParams::from_json(params));
    });
  // The baselines' names before they said whose baselines they are.
  for (const Mode mode : {Mode::Local, Mode::Server, Mode::Compress, Mode::Optimal}) {
    const std::string name = cbo::mode_name(mode);  // "cbo-local": retires "local"
    registry.retire(name.substr(std::string("cbo-").size()), name);
  }
}

}  // namespace coinfer
