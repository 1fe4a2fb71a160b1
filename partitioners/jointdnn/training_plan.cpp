// plan_of_training_schedule (training_problem.hpp): a training schedule as one chain of tasks.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "partitioners/jointdnn/training_problem.hpp"

namespace coinfer::jointdnn {

Plan plan_of_training_schedule(const TrainingProblem& tp, const Solution& solution, const std::string& name) {
  const ScenarioProblem& sp = tp.scenario;
  const int n = tp.forward_layers;
  const std::array<std::string, 2> device = {sp.mobile, sp.cloud};
  Plan plan;
  plan.name = name;
  // The step runs as one chain: every task depends on the tasks whose outputs it reads and starts
  // after the latest task (`prev`), so latency is the sum of the problem's terms.
  std::string prev;
  const auto push = [&](Task t) {
    if (!prev.empty() && std::find(t.deps.begin(), t.deps.end(), prev) == t.deps.end()) t.after = {prev};
    plan.tasks.push_back(std::move(t));
    prev = plan.tasks.back().id;
    return prev;
  };
  // [k]: whether output k is on each side and the task that put it there ("" for the model input).
  struct Where {
    std::array<bool, 2> on{false, false};
    std::array<std::string, 2> task;
  };
  std::vector<Where> where(tp.producers.size());
  where[0].on[0] = true;
  const auto deps_of = [](const std::string& id) {
    return id.empty() ? std::vector<std::string>{} : std::vector{id};
  };
  for (std::size_t gi = 0; gi < solution.groups.size(); ++gi) {
    const Group& grp = solution.groups[gi];
    const int s = grp.on == Side::mobile ? 0 : 1;
    // Every output read from before the group crosses once to its side (one crossing per output).
    std::vector<int> needed;
    for (int k = grp.first; k <= grp.last; ++k)
      for (int q : tp.producers[static_cast<std::size_t>(k)])
        if (q < grp.first) needed.push_back(q);
    std::sort(needed.begin(), needed.end());
    needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
    std::vector<std::string> deps;
    for (int q : needed) {
      Where& w = where[static_cast<std::size_t>(q)];
      if (!w.on[s])
        w.task[s] = push(transfer_task(fmt::format("{}-{}", s == 1 ? "up" : "down", tp.names[q]),
                                       device[1 - s], device[s], tp.crossing_bytes[q], deps_of(w.task[1 - s]),
                                       tp.names[q], sp.network));
      w.on[s] = true;
      if (!w.task[s].empty() && std::find(deps.begin(), deps.end(), w.task[s]) == deps.end())
        deps.push_back(w.task[s]);
    }
    const char* pass = grp.first > n ? "bwd" : grp.last <= n ? "fwd" : "fwd+bwd";
    const auto id =
        push(compute_task(fmt::format("g{}-{}", gi + 1, side_name(grp.on)), device[s],
                          sp.problem.group_time_s(grp.first, grp.last, grp.on), deps,
                          fmt::format("{} {}..{}", pass, tp.names[grp.first], tp.names[grp.last])));
    for (int k = grp.first; k <= grp.last; ++k) {
      where[static_cast<std::size_t>(k)].on = {s == 0, s == 1};
      where[static_cast<std::size_t>(k)].task[s] = id;
    }
    if (s == 1)
      for (int b = std::max(grp.first, n + 1); b <= grp.last; ++b)
        if (tp.weight_bytes[b - 1] > 0.0)
          push(transfer_task("weights-" + tp.names[b].substr(2), device[1], device[0], tp.weight_bytes[b - 1],
                             {id}, "weights " + tp.names[b].substr(2), sp.network));
  }
  return plan;
}

}  // namespace coinfer::jointdnn
