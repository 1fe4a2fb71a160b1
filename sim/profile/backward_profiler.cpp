#include "sim/profile/backward_profiler.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/forward_pass.hpp"
#include "sim/graph/graph_json.hpp"
#include "sim/kernels/gemm.hpp"
#include "sim/kernels/layer_runner.hpp"
#include "sim/kernels/normalization.hpp"
#include "sim/kernels/tensor_ops.hpp"
#include "sim/profile/backward_estimate.hpp"

namespace coinfer {
namespace {

/// One backward run of layer `i` on the forward pass's tensors.
void backward_once(const ForwardPass& fp, std::size_t i, const std::vector<Tensor>& acts, const Tensor& dy,
                   const kernels::LayerWeights& w) {
  const Layer& l = fp.graph().layer(i);
  if (l.op == OpKind::Dropout) {
    (void)kernels::dropout_backward(dy, Tensor(dy.shape, 1.0f));
    return;
  }
  std::vector<const Tensor*> inputs;
  for (auto p : fp.producers(i)) inputs.push_back(&acts[p]);
  (void)kernels::backward_layer(l, inputs, acts[i], w, dy);
}

TimingStats time_layer(const ForwardPass& fp, std::size_t i, const std::vector<Tensor>& acts,
                       const ProfileOptions& o) {
  const Layer& l = fp.graph().layer(i);
  const Tensor dy = random_normal(l.output_shape, derive_seed(o.seed, "grad:" + l.name));
  kernels::LayerWeights w = fp.weights(i);
  if (l.op == OpKind::BatchNorm)
    w.batch_norm = kernels::batch_norm_statistics(acts[fp.producers(i).front()], w.batch_norm);
  std::vector<double> samples;
  for (int r = 0; r < o.warmup + o.repeats; ++r) {
    const double t0 = profiler_clock_s();
    backward_once(fp, i, acts, dy, w);
    if (r >= o.warmup) samples.push_back(profiler_clock_s() - t0);
  }
  return timing_stats(samples);
}

HostProfile measure_backward(const Graph& graph, const ProfileOptions& o) {
  const ForwardPass fp(graph, o.seed);
  const std::vector<Tensor> acts = fp.run(fp.make_inputs(o.seed), true);
  HostProfile p;
  p.model = graph.name();
  p.host_cpu = host_cpu_model();
  p.basis = "profile";
  p.build_id = profiler_build_id();
  for (std::size_t i : graph.topological_order())
    p.layers.push_back(graph.layer(i).op == OpKind::Input ? TimingStats{} : time_layer(fp, i, acts, o));
  return p;
}

}  // namespace

HostProfile profile_backward(const Graph& graph, const ProfileOptions& o) {
  if (o.repeats < 1 || o.warmup < 0)
    throw Error(fmt::format("backward profiler: repeats must be >= 1 and warmup >= 0, got {} and {}",
                            o.repeats, o.warmup));
  if (!o.groups.empty()) throw Error("backward profiler: layers only, no groups");
  if (o.batch != 1) throw Error("backward profiler: one sample per kernel call, batch 1");
  if (const auto layer = first_layer_without_backward(graph))
    throw InputError("", "model",
                     fmt::format("model '{}': layer '{}' ({}) has no backward kernel", graph.name(), *layer,
                                 op_name(graph.layer_by_name(*layer).op)));
  if (o.use_cache)
    if (auto p = cached_profile(graph, o, "backward");
        p && std::all_of(p->layers.begin(), p->layers.end(), [&](const TimingStats& t) {
          return t.repeats >= o.repeats || t.repeats == 0;  // input layers have no samples
        }))
      return *p;
  HostProfile p = measure_backward(graph, o);
  if (o.use_cache) cache_profile(graph, o, "backward", p);
  return p;
}

}  // namespace coinfer
