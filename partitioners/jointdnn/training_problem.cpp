#include "partitioners/jointdnn/training_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "sim/core/error.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/profile/backward_estimate.hpp"
#include "sim/replay/energy.hpp"

namespace coinfer::jointdnn {
namespace {

void check_trainable(const Graph& g, const ScenarioProblem& base) {
  if (const auto layer = first_layer_without_backward(g))
    throw InputError("", "model",
                     fmt::format("model '{}': layer '{}' ({}) has no backward kernel; mode: training "
                                 "needs one for every layer",
                                 g.name(), *layer, op_name(g.layer_by_name(*layer).op)));
  const auto& order = g.topological_order();
  for (std::size_t k = 1; k < base.producers.size(); ++k) {
    const Layer& l = g.layer(order[base.position[k]]);
    if (base.producers[k].size() > 1 && l.op != OpKind::Add)
      throw InputError(
          "", "model",
          fmt::format("model '{}': layer '{}' ({}) joins {} inputs; its backward sends each producer a "
                      "different slice of the gradient, which the 2N-layer problem (one crossing per "
                      "output) cannot cost; mode: training handles chains and residual adds",
                      g.name(), l.name, op_name(l.op), base.producers[k].size()));
  }
}

/// The backward half mirrors the forward DAG: b(u) -> b(v) for every forward edge v -> u (v >= 1;
/// nothing reads dL/d(model input)), with b(u) = problem layer 2N+1-u. Forward chain edges give
/// backward chain edges, forward skips [v, u] give skips [2N+1-u, 2N+1-v], a detached forward layer
/// u (not reading u-1) detaches b(u-1) (it does not read b(u)). b(N) reads forward layer N (the loss).
void fill_training_edges(const ScenarioProblem& base, TrainingProblem& tp) {
  const Problem& b = base.problem;
  Problem& p = tp.scenario.problem;
  const int n = b.layers;
  tp.producers.assign(static_cast<std::size_t>(2 * n + 1), {});
  for (int u = 1; u <= n; ++u)
    for (auto v : base.producers[static_cast<std::size_t>(u)]) {
      tp.producers[static_cast<std::size_t>(u)].push_back(static_cast<int>(v));
      if (v >= 1) tp.producers[static_cast<std::size_t>(2 * n + 1) - v].push_back(2 * n + 1 - u);
    }
  tp.producers[static_cast<std::size_t>(n + 1)].push_back(n);
  for (auto& q : tp.producers) std::sort(q.begin(), q.end());
  p.skips = b.skips;
  for (const Skip& s : b.skips)
    if (s.from_layer >= 1) p.skips.push_back({2 * n + 1 - s.to_layer, 2 * n + 1 - s.from_layer});
  p.detached = b.detached;
  for (auto it = b.detached.rbegin(); it != b.detached.rend(); ++it)
    if (*it >= 2) p.detached.push_back(2 * n + 2 - *it);
}

/// Rows of group times: forward part from the inference problem, backward part from `backward`.
void fill_training_groups(const ScenarioProblem& base, const CostModel& backward,
                          const DeviceCalibration& mobile, const DeviceCalibration& cloud, Problem& p) {
  const int n = base.problem.layers;
  p.mobile_time_s.assign(2 * n, {});
  p.cloud_time_s.assign(2 * n, {});
  p.mobile_energy_j.assign(2 * n, {});
  for (int first = 1; first <= 2 * n; ++first)
    for (int last = first; last <= 2 * n; ++last) {
      std::array<double, 2> t{0.0, 0.0};
      if (first <= n) {
        const int fwd_last = std::min(last, n);
        t = {base.problem.group_time_s(first, fwd_last, Side::mobile),
             base.problem.group_time_s(first, fwd_last, Side::cloud)};
      }
      if (last > n) {
        // Backward layers [max(first, n+1), last] mirror forward positions [2n+1-last, 2n+1-b].
        const auto lo = static_cast<std::size_t>(2 * n + 1 - last);
        const auto hi = static_cast<std::size_t>(2 * n + 1 - std::max(first, n + 1));
        t[0] += backward.range_time_s(lo, hi, mobile, false);
        t[1] += backward.range_time_s(lo, hi, cloud, false);
      }
      p.mobile_time_s[first - 1].push_back(t[0]);
      p.cloud_time_s[first - 1].push_back(t[1]);
      p.mobile_energy_j[first - 1].push_back(base.busy_w * t[0]);
    }
}

/// Crossing of output k: forward outputs as in inference; backward output b(u) = dL/d(input of u)
/// as the inference crossing of u's single producer's output (the same size), of u's own output for
/// a residual add (it passes dL/d(out u) unchanged to each producer: one tensor, read by every
/// backward consumer), nothing when u reads only the model input (dL/d(input) is not needed).
void fill_training_crossings(const ScenarioProblem& base, TrainingProblem& tp) {
  const Problem& b = base.problem;
  Problem& p = tp.scenario.problem;
  const int n = b.layers;
  for (int k = 0; k <= 2 * n; ++k) {
    int j = k;  // the inference crossing of the same size, -1 for none
    if (k > n) {
      const auto& in = base.producers[static_cast<std::size_t>(2 * n + 1 - k)];
      const bool needed = std::any_of(in.begin(), in.end(), [](std::size_t v) { return v >= 1; });
      j = !needed ? -1 : in.size() > 1 ? 2 * n + 1 - k : static_cast<int>(in.front());
    }
    const bool none = j < 0;
    const auto i = static_cast<std::size_t>(std::max(j, 0));
    p.upload_time_s.push_back(none ? 0.0 : b.upload_time_s[i]);
    p.download_time_s.push_back(none ? 0.0 : b.download_time_s[i]);
    p.upload_energy_j.push_back(none ? 0.0 : b.upload_energy_j[i]);
    p.download_energy_j.push_back(none ? 0.0 : b.download_energy_j[i]);
    tp.crossing_bytes.push_back(none ? 0.0 : base.wire_bytes[i]);
  }
}

/// eq. 13 / 16's weight terms: updated_fraction x weight bytes of each backward layer, downloaded.
void fill_weight_downloads(const Graph& g, const ScenarioProblem& base, double fraction, bool int8,
                           TrainingProblem& tp) {
  Problem& p = tp.scenario.problem;
  const int n = base.problem.layers;
  const auto& order = g.topological_order();
  tp.weight_bytes.assign(2 * n, 0.0);
  p.weight_download_time_s.assign(2 * n, 0.0);
  p.weight_download_energy_j.assign(2 * n, 0.0);
  for (int r = 1; r <= n; ++r) {
    const Layer& l = g.layer(order[base.position[n - r + 1]]);
    // Whole bytes (rounded up; the 1e-6 absorbs float error in e.g. 0.3 x 100,400).
    const double bytes = std::ceil(fraction * static_cast<double>(l.params) * (int8 ? 1.0 : 4.0) - 1e-6);
    if (!(bytes > 0.0)) continue;
    const double t = transfer_time_s(bytes, base.downlink.rate_bps, base.downlink.latency_s);
    tp.weight_bytes[n + r - 1] = bytes;
    p.weight_download_time_s[n + r - 1] = t;
    if (base.radio)
      p.weight_download_energy_j[n + r - 1] =
          radio_energy_j(base.radio->downlink_alpha_mw_per_mbps, base.radio->downlink_beta_mw, bytes, t);
  }
}

void fill_names(const Graph& g, const ScenarioProblem& base, TrainingProblem& tp) {
  const int n = base.problem.layers;
  const auto& order = g.topological_order();
  const auto name = [&](int k) { return g.layer(order[base.position[k]]).name; };
  tp.names.push_back("input");
  for (int k = 1; k <= n; ++k) tp.names.push_back(name(k));
  for (int r = 1; r <= n; ++r) tp.names.push_back("d:" + name(n - r + 1));
}

}  // namespace

TrainingProblem build_training_problem(const PartitionContext& ctx, const ScenarioSetup& setup,
                                       double updated_fraction) {
  if (!(updated_fraction >= 0.0 && updated_fraction <= 1.0))
    throw InputError("", "partitioner.updated_fraction",
                     fmt::format("expected a number in [0, 1], got {}", updated_fraction));
  if (setup.png)
    throw InputError("", "partitioner.compression",
                     "mode: training sends activations, gradients and weights raw; png is for inference");
  ScenarioProblem base = build_scenario_problem(ctx, setup);
  check_trainable(ctx.graph, base);
  // Backward layers of a batch-B step: the batch-B forward times (as the forward groups use) x each
  // layer's backward / forward ratio; gradients cross B x the tensor (base.wire_bytes), while the
  // weight downloads stay one per step.
  std::optional<CostModel> batched;
  if (setup.batch > 1) batched = ctx.batch_cost(setup.batch);  // build_scenario_problem checked it exists
  const HostProfile& forward_profile = batched ? batched->profile() : ctx.cost.profile();
  const CostModel backward(ctx.graph, backward_profile_of(ctx.graph, forward_profile),
                           MeasuredProfile::AsMeasured);
  TrainingProblem tp;
  tp.forward_layers = base.problem.layers;
  tp.scenario = base;
  Problem& p = tp.scenario.problem;
  p = Problem{};
  p.layers = 2 * base.problem.layers;
  p.objective = base.problem.objective;
  p.max_latency_s = base.problem.max_latency_s;
  p.max_energy_j = base.problem.max_energy_j;
  p.max_cloud_time_s = base.problem.max_cloud_time_s;
  const DeviceCalibration& mobile = ctx.platform.devices[ctx.platform.device_index(base.mobile)].calibration;
  const DeviceCalibration& cloud = ctx.platform.devices[ctx.platform.device_index(base.cloud)].calibration;
  fill_training_groups(base, backward, mobile, cloud, p);
  fill_training_edges(base, tp);
  fill_training_crossings(base, tp);
  fill_weight_downloads(ctx.graph, base, updated_fraction, setup.int8_wire, tp);
  fill_names(ctx.graph, base, tp);
  if (base.wake_up_s > 0.0 && idle_gap_bound_s(p) > base.power_save_timeout_s)
    throw InputError("", "partitioner.network",
                     fmt::format("network '{}': the mobile's radio may sleep during a training step (a "
                                 "schedule can leave it idle up to {:.6g} s, power_save_timeout_s is "
                                 "{:.6g} s); the crossings cannot be costed exactly",
                                 base.network, idle_gap_bound_s(p), base.power_save_timeout_s));
  return tp;
}

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
