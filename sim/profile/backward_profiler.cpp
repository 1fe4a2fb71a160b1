#include "sim/profile/backward_profiler.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

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

namespace fs = std::filesystem;

double cpu_or_wall_s() {
  timespec ts{};
  clock_gettime(kernels::kernel_threads() == 1 ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

Json backward_key(const Graph& graph, const ProfileOptions& o) {
  return {{"model", graph.name()},
          {"graph", fmt::format("{:016x}", derive_seed(0, graph_to_json(graph).dump()))},
          {"build", profiler_build_id()},
          {"host_cpu", host_cpu_model()},
          {"seed", o.seed},
          {"clock", kernels::kernel_threads() == 1 ? "thread-cpu" : "wall"},
          {"warmup", o.warmup},
          {"pass", "backward"}};
}

/// The cached profile when its key matches and it has at least `repeats` per timed layer (the
/// input layers have none).
std::optional<HostProfile> cached_backward(const fs::path& file, const Json& key, int repeats) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  try {
    const Json j = Json::parse(in);
    HostProfile p = host_profile_from_json(j.at("profile"));
    const bool enough = std::all_of(p.layers.begin(), p.layers.end(), [&](const TimingStats& t) {
      return t.repeats >= repeats || t.repeats == 0;
    });
    if (j.at("key") == key && enough) return p;
  } catch (const std::exception&) {
  }
  return std::nullopt;  // missing, foreign, corrupt or too few repeats: measured again
}

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
    const double t0 = cpu_or_wall_s();
    backward_once(fp, i, acts, dy, w);
    if (r >= o.warmup) samples.push_back(cpu_or_wall_s() - t0);
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
  if (const auto layer = first_layer_without_backward(graph))
    throw InputError("", "model",
                     fmt::format("model '{}': layer '{}' ({}) has no backward kernel", graph.name(), *layer,
                                 op_name(graph.layer_by_name(*layer).op)));
  const Json key = backward_key(graph, o);
  const fs::path file = fs::path(profile_cache_dir(o)) /
                        fmt::format("backward-{}-{:016x}.json", graph.name(), derive_seed(0, key.dump()));
  if (o.use_cache)
    if (auto p = cached_backward(file, key, o.repeats)) return *p;
  HostProfile p = measure_backward(graph, o);
  if (o.use_cache) {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    const auto tmp = file.string() + fmt::format(".tmp{}", static_cast<long>(::getpid()));
    std::ofstream(tmp) << Json{{"key", key}, {"profile", host_profile_to_json(p)}}.dump();
    fs::rename(tmp, file, ec);  // best effort, as the forward cache
  }
  return p;
}

}  // namespace coinfer
