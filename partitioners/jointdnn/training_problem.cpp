#include "partitioners/jointdnn/training_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "sim/core/error.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/cost/energy.hpp"
#include "sim/profile/backward_estimate.hpp"

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
    const auto& in = base.producers[k];
    if (in.size() > 1 && l.op != OpKind::Add && l.op != OpKind::Concat)
      throw InputError("", "model",
                       fmt::format("model '{}': layer '{}' ({}) joins {} inputs; mode: training routes "
                                   "gradients through adds and concats only",
                                   g.name(), l.name, op_name(l.op), in.size()));
    const auto twice = std::adjacent_find(in.begin(), in.end());
    if (l.op == OpKind::Concat && twice != in.end())
      throw InputError("", "model",
                       fmt::format("model '{}': concat '{}' reads layer '{}' more than once; mode: training "
                                   "gives each concat input its own gradient slice and needs distinct inputs",
                                   g.name(), l.name, g.layer(order[base.position[*twice]]).name));
  }
}

/// The backward half in problem order: b(N), ..., b(1), each concat's slices right after it.
void fill_layout(const Graph& g, const ScenarioProblem& base, TrainingProblem& tp) {
  const int n = base.problem.layers;
  const auto& order = g.topological_order();
  for (int u = n; u >= 1; --u) {
    tp.backward.push_back({u, -1, -1});
    const Layer& l = g.layer(order[base.position[static_cast<std::size_t>(u)]]);
    if (l.op != OpKind::Concat) continue;
    for (auto v : base.producers[static_cast<std::size_t>(u)]) {
      if (v == 0) continue;  // nothing reads dL/d(model input)
      const std::string& name = g.layer(order[base.position[v]]).name;
      const auto input = std::find(l.inputs.begin(), l.inputs.end(), name) - l.inputs.begin();
      tp.backward.push_back({u, static_cast<int>(v), static_cast<int>(input)});
    }
  }
}

/// The reverse DAG: b(u) -> b(v) for every forward edge v -> u (v >= 1), through s(u, v) when u is
/// a concat; b(N) reads forward layer N (the loss). Skips and detached layers follow from the
/// producers as in the inference problem (every edge but "previous layer" is a skip).
void fill_training_edges(const ScenarioProblem& base, TrainingProblem& tp) {
  const int n = base.problem.layers;
  const int layers = n + static_cast<int>(tp.backward.size());
  Problem& p = tp.scenario.problem;
  std::vector<int> index_of_b(static_cast<std::size_t>(n + 1), 0);
  std::vector<bool> sliced(static_cast<std::size_t>(n + 1), false);  // b(u) read by slices only
  for (std::size_t i = 0; i < tp.backward.size(); ++i) {
    const auto u = static_cast<std::size_t>(tp.backward[i].layer);
    if (tp.backward[i].is_slice())
      sliced[u] = true;
    else
      index_of_b[u] = n + 1 + static_cast<int>(i);
  }
  tp.producers.assign(static_cast<std::size_t>(layers + 1), {});
  for (int u = 1; u <= n; ++u)
    for (auto v : base.producers[static_cast<std::size_t>(u)])
      tp.producers[static_cast<std::size_t>(u)].push_back(static_cast<int>(v));
  for (std::size_t i = 0; i < tp.backward.size(); ++i) {
    const BackwardLayer& b = tp.backward[i];
    const int k = n + 1 + static_cast<int>(i);
    if (b.is_slice()) {
      tp.producers[static_cast<std::size_t>(k)].push_back(index_of_b[b.layer]);
      tp.producers[static_cast<std::size_t>(index_of_b[b.producer])].push_back(k);
      continue;
    }
    if (b.layer == n) tp.producers[static_cast<std::size_t>(k)].push_back(n);
    if (sliced[static_cast<std::size_t>(b.layer)]) continue;
    for (auto v : base.producers[static_cast<std::size_t>(b.layer)])
      if (v >= 1) tp.producers[static_cast<std::size_t>(index_of_b[v])].push_back(k);
  }
  for (auto& q : tp.producers) {
    std::sort(q.begin(), q.end());
    q.erase(std::unique(q.begin(), q.end()), q.end());
  }
  p.skips = base.problem.skips;
  p.detached = base.problem.detached;
  for (int k = n + 1; k <= layers; ++k) {
    const auto& q = tp.producers[static_cast<std::size_t>(k)];
    if (!std::binary_search(q.begin(), q.end(), k - 1)) p.detached.push_back(k);
    for (int from : q)
      if (from != k - 1) p.skips.push_back({from, k});
  }
}

/// Rows of group times: forward part from the inference problem, backward part from `backward`
/// (the b(u) in the group are a contiguous forward range [lo, hi]; slices cost nothing).
void fill_training_groups(const ScenarioProblem& base, const TrainingProblem& tp, const CostModel& backward,
                          const DeviceCalibration& mobile, const DeviceCalibration& cloud, Problem& p) {
  const int n = base.problem.layers;
  const int layers = p.layers;
  p.mobile_time_s.assign(static_cast<std::size_t>(layers), {});
  p.cloud_time_s.assign(static_cast<std::size_t>(layers), {});
  p.mobile_energy_j.assign(static_cast<std::size_t>(layers), {});
  for (int first = 1; first <= layers; ++first) {
    int hi = 0, lo = 0;  // forward range of the group's b(u) (hi = 0: none yet)
    for (int last = first; last <= layers; ++last) {
      std::array<double, 2> t{0.0, 0.0};
      if (first <= n) {
        const int fwd_last = std::min(last, n);
        t = {base.problem.group_time_s(first, fwd_last, Side::mobile),
             base.problem.group_time_s(first, fwd_last, Side::cloud)};
      }
      if (last > n && !tp.backward[static_cast<std::size_t>(last - n - 1)].is_slice()) {
        lo = tp.backward[static_cast<std::size_t>(last - n - 1)].layer;
        if (hi == 0) hi = lo;
      }
      if (hi > 0) {
        t[0] +=
            backward.range_time_s(static_cast<std::size_t>(lo), static_cast<std::size_t>(hi), mobile, false);
        t[1] +=
            backward.range_time_s(static_cast<std::size_t>(lo), static_cast<std::size_t>(hi), cloud, false);
      }
      p.mobile_time_s[first - 1].push_back(t[0]);
      p.cloud_time_s[first - 1].push_back(t[1]);
      p.mobile_energy_j[first - 1].push_back(base.busy_w * t[0]);
    }
  }
}

/// Crossing of output k: forward outputs as in inference; b(u)'s dL/d(input of u) as the inference
/// crossing of u's single producer's output (the same size), of u's own output for an add (one
/// tensor, read by every backward consumer) or a concat (G, read by its slices), nothing when u
/// reads only the model input (dL/d(input) is not needed); s(u, v) as v's output.
void fill_training_crossings(const ScenarioProblem& base, TrainingProblem& tp) {
  const Problem& b = base.problem;
  Problem& p = tp.scenario.problem;
  const int n = b.layers;
  for (int k = 0; k <= p.layers; ++k) {
    int j = k;  // the inference crossing of the same size, -1 for none
    if (k > n) {
      const BackwardLayer& bl = tp.backward[static_cast<std::size_t>(k - n - 1)];
      const auto& in = base.producers[static_cast<std::size_t>(bl.layer)];
      const bool needed = std::any_of(in.begin(), in.end(), [](std::size_t v) { return v >= 1; });
      j = bl.is_slice()   ? bl.producer
          : !needed       ? -1
          : in.size() > 1 ? bl.layer
                          : static_cast<int>(in.front());
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
  const std::size_t layers = tp.backward.size() + static_cast<std::size_t>(n);
  tp.weight_bytes.assign(layers, 0.0);
  p.weight_download_time_s.assign(layers, 0.0);
  p.weight_download_energy_j.assign(layers, 0.0);
  for (std::size_t i = 0; i < tp.backward.size(); ++i) {
    if (tp.backward[i].is_slice()) continue;
    const Layer& l = g.layer(order[base.position[static_cast<std::size_t>(tp.backward[i].layer)]]);
    // Whole bytes (rounded up; the 1e-6 absorbs float error in e.g. 0.3 x 100,400).
    const double bytes = std::ceil(fraction * static_cast<double>(l.params) * (int8 ? 1.0 : 4.0) - 1e-6);
    if (!(bytes > 0.0)) continue;
    const double t = transfer_time_s(bytes, base.downlink.rate_bps, base.downlink.latency_s);
    const std::size_t k = static_cast<std::size_t>(n) + i;  // [k - 1] of problem layer k = n + 1 + i
    tp.weight_bytes[k] = bytes;
    p.weight_download_time_s[k] = t;
    if (base.radio)
      p.weight_download_energy_j[k] =
          radio_energy_j(base.radio->downlink_alpha_mw_per_mbps, base.radio->downlink_beta_mw, bytes, t);
  }
}

void fill_names(const Graph& g, const ScenarioProblem& base, TrainingProblem& tp) {
  const int n = base.problem.layers;
  const auto& order = g.topological_order();
  const auto name = [&](int k) { return g.layer(order[base.position[k]]).name; };
  tp.names.push_back("input");
  for (int k = 1; k <= n; ++k) tp.names.push_back(name(k));
  for (const BackwardLayer& b : tp.backward)
    tp.names.push_back(b.is_slice() ? fmt::format("d:{}/{}", name(b.layer), b.input) : "d:" + name(b.layer));
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
  const CostModel backward = ctx.backward_cost
                                 ? ctx.backward_cost(forward_profile)
                                 : CostModel(ctx.graph, backward_profile_of(ctx.graph, forward_profile),
                                             MeasuredProfile::AsMeasured);
  TrainingProblem tp;
  tp.forward_layers = base.problem.layers;
  tp.scenario = base;
  Problem& p = tp.scenario.problem;
  p = Problem{};
  fill_layout(ctx.graph, base, tp);
  p.layers = base.problem.layers + static_cast<int>(tp.backward.size());
  check_group_tables(ctx.graph, p.layers);
  p.objective = base.problem.objective;
  p.max_latency_s = base.problem.max_latency_s;
  p.max_energy_j = base.problem.max_energy_j;
  p.max_cloud_time_s = base.problem.max_cloud_time_s;
  const DeviceCalibration& mobile = ctx.platform.devices[ctx.platform.device_index(base.mobile)].calibration;
  const DeviceCalibration& cloud = ctx.platform.devices[ctx.platform.device_index(base.cloud)].calibration;
  fill_training_groups(base, tp, backward, mobile, cloud, p);
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

}  // namespace coinfer::jointdnn
