// The plan of a JointDNN schedule (scenario_problem.hpp: plan_of_schedule).
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "partitioners/jointdnn/scenario_problem.hpp"
#include "sim/core/error.hpp"

namespace coinfer::jointdnn {

Plan plan_of_schedule(const PartitionContext& ctx, const ScenarioProblem& sp, const Solution& solution,
                      const std::string& name) {
  const Graph& g = ctx.graph;
  const auto& order = g.topological_order();
  const std::array<std::string, 2> device = {sp.mobile, sp.cloud};
  const auto layer_name = [&](std::size_t k) -> const std::string& {
    return g.layer(order[sp.position[k]]).name;
  };
  // Which sides hold each layer's output, and the task that put it there ("" = the model input).
  struct Where {
    std::array<bool, 2> on{false, false};
    std::array<std::string, 2> task;
  };
  std::vector<Where> where(sp.position.size());
  where[0].on[0] = true;
  std::array<std::string, 2> last_task;      // the latest task whose output is on each side
  std::array<std::string, 2> last_crossing;  // the last task of the latest crossing towards each side
  Plan plan;
  plan.name = name;
  const auto add_dep = [](std::vector<std::string>& deps, const std::string& id) {
    if (!id.empty() && std::find(deps.begin(), deps.end(), id) == deps.end()) deps.push_back(id);
  };
  // A crossing: [compress on the sender ->] transfer [-> decompress on the receiver].
  const auto cross = [&](std::size_t k, int to) {
    const int from = 1 - to;
    const int dir = to == 1 ? 0 : 1;
    const bool png = sp.compress_s[k][dir] > 0.0;
    std::vector<std::string> deps;
    add_dep(deps, where[k].task[from]);
    add_dep(deps, last_task[from]);  // not before the work that precedes the crossing on its side
    const auto tag = fmt::format("{}-{}", to == 1 ? "up" : "down", layer_name(k));
    const auto what = k == 0 ? std::string("input") : layer_name(k);
    // One crossing at a time: the problem charges each its own latency and eq. 21 energy, so
    // several outputs crossing at one boundary (a split inside a residual block) go one by one.
    bool first = true;
    const auto push = [&](Task t) {
      if (first && !last_crossing[to].empty() &&
          std::find(t.deps.begin(), t.deps.end(), last_crossing[to]) == t.deps.end())
        t.after = {last_crossing[to]};
      first = false;
      plan.tasks.push_back(std::move(t));
      return plan.tasks.back().id;
    };
    std::string last;
    if (png) {
      last = push(compute_task("zip-" + tag, device[from], sp.compress_s[k][dir], deps, "png " + what));
      deps = {last};
    }
    last = push(transfer_task(tag, device[from], device[to], sp.wire_bytes[k], deps, what, sp.network));
    if (png)
      last = push(compute_task("unzip-" + tag, device[to], sp.decompress_s[k][dir], {last}, "png " + what));
    where[k].on[to] = true;
    where[k].task[to] = last;
    last_task[to] = last;
    last_crossing[to] = last;
  };
  for (std::size_t gi = 0; gi < solution.groups.size(); ++gi) {
    const Group& grp = solution.groups[gi];
    const int s = grp.on == Side::mobile ? 0 : 1;
    std::vector<std::size_t> needed;
    for (int k = grp.first; k <= grp.last; ++k)
      for (auto q : sp.producers[k])
        if (static_cast<int>(q) < grp.first) needed.push_back(q);
    std::sort(needed.begin(), needed.end());
    needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
    for (auto q : needed)
      if (!where[q].on[s]) cross(q, s);
    std::vector<std::string> deps;
    for (auto q : needed) add_dep(deps, where[q].task[s]);
    add_dep(deps, last_task[s]);
    const auto id = fmt::format("g{}-{}", gi + 1, side_name(grp.on));
    plan.tasks.push_back(compute_task(id, device[s], sp.problem.group_time_s(grp.first, grp.last, grp.on),
                                      deps,
                                      fmt::format("{}..{}", layer_name(grp.first), layer_name(grp.last))));
    for (int k = grp.first; k <= grp.last; ++k) {
      where[k].on = {s == 0, s == 1};
      where[k].task[s] = id;
    }
    last_task[s] = id;
  }
  if (!where.back().on[0]) cross(where.size() - 1, 0);
  return plan;
}

}  // namespace coinfer::jointdnn
