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
  if (!base.problem.skips.empty() || !base.problem.detached.empty())
    throw InputError("", "model",
                     fmt::format("model '{}' has residual or branch edges; mode: training handles chains "
                                 "only (every layer reading just its predecessor)",
                                 g.name()));
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

/// Crossing of output k: forward outputs as in inference, gradient N+r as forward output N-r.
void fill_training_crossings(const ScenarioProblem& base, TrainingProblem& tp) {
  const Problem& b = base.problem;
  Problem& p = tp.scenario.problem;
  const int n = b.layers;
  for (int k = 0; k <= 2 * n; ++k) {
    const int j = k <= n ? k : 2 * n - k;  // the inference crossing of the same size
    const bool none = k == 2 * n;
    p.upload_time_s.push_back(none ? 0.0 : b.upload_time_s[j]);
    p.download_time_s.push_back(none ? 0.0 : b.download_time_s[j]);
    p.upload_energy_j.push_back(none ? 0.0 : b.upload_energy_j[j]);
    p.download_energy_j.push_back(none ? 0.0 : b.download_energy_j[j]);
    tp.crossing_bytes.push_back(none ? 0.0 : base.wire_bytes[j]);
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
  // The step runs as one chain: every task reads the output of `data` (the latest compute or
  // crossing) and starts after `prev` (the latest task, a weight download included).
  std::string data, prev;
  const auto push = [&](Task t, bool carries_data) {
    if (!data.empty()) t.deps = {data};
    if (!prev.empty() && prev != data) t.after = {prev};
    plan.tasks.push_back(std::move(t));
    prev = plan.tasks.back().id;
    if (carries_data) data = prev;
  };
  int holder = 0;  // the side holding the output of the layer before the next group
  for (std::size_t gi = 0; gi < solution.groups.size(); ++gi) {
    const Group& grp = solution.groups[gi];
    const int s = grp.on == Side::mobile ? 0 : 1;
    const int k = grp.first - 1;
    if (s != holder)
      push(transfer_task(fmt::format("{}-{}", s == 1 ? "up" : "down", tp.names[k]), device[holder], device[s],
                         tp.crossing_bytes[k], {}, tp.names[k], sp.network),
           true);
    const char* pass = grp.first > n ? "bwd" : grp.last <= n ? "fwd" : "fwd+bwd";
    push(compute_task(fmt::format("g{}-{}", gi + 1, side_name(grp.on)), device[s],
                      sp.problem.group_time_s(grp.first, grp.last, grp.on), {},
                      fmt::format("{} {}..{}", pass, tp.names[grp.first], tp.names[grp.last])),
         true);
    if (s == 1) {
      for (int b = std::max(grp.first, n + 1); b <= grp.last; ++b)
        if (tp.weight_bytes[b - 1] > 0.0) {
          push(transfer_task("weights-" + tp.names[b].substr(2), device[1], device[0], tp.weight_bytes[b - 1],
                             {}, "weights " + tp.names[b].substr(2), sp.network),
               false);
        }
    }
    holder = s;
  }
  return plan;
}

}  // namespace coinfer::jointdnn
