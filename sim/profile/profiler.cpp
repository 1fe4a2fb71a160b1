#include "sim/profile/profiler.hpp"

#include <algorithm>
#include <ctime>
#include <optional>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/forward_pass.hpp"
#include "sim/kernels/batched.hpp"
#include "sim/kernels/gemm.hpp"
#include "sim/kernels/layer_runner.hpp"

namespace coinfer {
namespace {

// Positions of the streaming forward pass: topological order, producers and last consumers.
struct Plan {
  std::vector<std::size_t> order;                // position -> layer index
  std::vector<std::vector<std::size_t>> inputs;  // position -> producer positions
  std::vector<std::size_t> last_use;             // position -> last consuming position
};

Plan make_plan(const Graph& g) {
  Plan p;
  p.order = g.topological_order();
  std::vector<std::size_t> position_of(g.size());
  for (std::size_t pos = 0; pos < p.order.size(); ++pos) position_of[p.order[pos]] = pos;
  p.inputs.resize(p.order.size());
  p.last_use.resize(p.order.size());
  for (std::size_t pos = 0; pos < p.order.size(); ++pos) {
    p.last_use[pos] = pos;
    for (const auto& name : g.layer(p.order[pos]).inputs)
      p.inputs[pos].push_back(position_of[static_cast<std::size_t>(g.index_of(name))]);
  }
  for (std::size_t pos = 0; pos < p.order.size(); ++pos)
    for (auto in : p.inputs[pos]) p.last_use[in] = std::max(p.last_use[in], pos);
  return p;
}

// Seeded weights and model inputs, derived from the layer name so they do not depend on order.
struct Workload {
  const Graph& graph;
  const Plan& plan;
  std::uint64_t seed;
  std::int64_t batch = 1;  ///< > 1: every tensor holds `batch` samples, {B, shape} (batched.hpp)

  const Layer& layer(std::size_t pos) const { return graph.layer(plan.order[pos]); }
  kernels::LayerWeights weights(std::size_t pos) const {
    const Layer& l = layer(pos);
    if (l.op == OpKind::Input) return {};
    const Layer& first_input = layer(plan.inputs[pos].front());
    return kernels::make_weights(l, first_input.output_shape, derive_seed(seed, l.name));
  }
  Tensor model_input(std::size_t pos) const {
    Shape shape = layer(pos).attrs.shape;
    if (batch > 1) shape.insert(shape.begin(), batch);
    return random_normal(shape, derive_seed(seed, "input:" + layer(pos).name));
  }
};

using Outputs = std::vector<std::optional<Tensor>>;

// Runs the layer at `pos` once; `output_of(q)` gives the live output of position q (or null), and
// input layers read `model_input`.
template <class OutputOf>
Tensor run_at(const Workload& w, std::size_t pos, OutputOf&& output_of, const kernels::LayerWeights& weights,
              const Tensor* model_input) {
  std::vector<const Tensor*> inputs;
  if (w.layer(pos).op == OpKind::Input) {
    inputs.push_back(model_input);
  } else {
    for (auto in : w.plan.inputs[pos]) {
      const Tensor* t = output_of(in);
      if (!t) throw Error(fmt::format("profiler: input of '{}' was freed too early", w.layer(pos).name));
      inputs.push_back(t);
    }
  }
  if (w.batch > 1) return kernels::run_layer_batch(w.layer(pos), inputs, weights, w.batch);
  return kernels::run_layer(w.layer(pos), inputs, weights);
}

const Tensor* live(const Outputs& outputs, std::size_t pos) {
  return outputs[pos] ? &*outputs[pos] : nullptr;
}

// The profiler's clock: this thread's CPU time when kernels run single-threaded (immune to the
// time the OS gives other processes on a shared machine), wall time when kernels use threads.
double clock_now_s() {
  timespec ts{};
  const clockid_t id = kernels::kernel_threads() == 1 ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
  clock_gettime(id, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double seconds_since(double t0_s) { return clock_now_s() - t0_s; }

// Cost of one clock read, measured once (median of back-to-back reads); subtracted from every
// per-layer sample so that many tiny layers do not add up the clock's own cost.
double clock_overhead_s() {
  static const double overhead = [] {
    std::vector<double> samples;
    for (int i = 0; i < 201; ++i) {
      const double t0 = clock_now_s();
      samples.push_back(clock_now_s() - t0);
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
  }();
  return overhead;
}

using WeightSet = std::vector<std::optional<kernels::LayerWeights>>;

// One pass over [first, last]: inputs from before `first` come from `outside`, intermediates are
// freed after their last consumer inside the range. Returns the elapsed seconds; with `layer_s`,
// also each layer's share (its kernel plus the frees it triggers), indexed by position.
double run_range(const Workload& w, std::size_t first, std::size_t last, const Outputs& outside,
                 const WeightSet& weights, const std::vector<std::optional<Tensor>>& model_inputs,
                 std::vector<double>* layer_s = nullptr) {
  Outputs local(last - first + 1);
  auto output_of = [&](std::size_t q) { return q < first ? live(outside, q) : live(local, q - first); };
  const double t0 = clock_now_s();
  double previous = t0;
  for (std::size_t pos = first; pos <= last; ++pos) {
    local[pos - first] = run_at(w, pos, output_of, *weights[pos], live(model_inputs, pos));
    for (auto in : w.plan.inputs[pos])
      if (in >= first && w.plan.last_use[in] <= pos) local[in - first].reset();
    if (layer_s) {
      const double now = clock_now_s();
      (*layer_s)[pos] = std::max(0.0, now - previous - clock_overhead_s());
      previous = now;
    }
  }
  return seconds_since(t0);
}

TimingStats time_group(const Workload& w, const LayerRange& g, const Outputs& outputs,
                       const WeightSet& weights, const std::vector<std::optional<Tensor>>& model_inputs,
                       int warmup, int repeats) {
  std::vector<double> samples;
  for (int r = 0; r < warmup + repeats; ++r) {
    const double s = run_range(w, g.first, g.second, outputs, weights, model_inputs);
    if (r >= warmup) samples.push_back(s);
  }
  return timing_stats(samples);
}

struct Measured {
  std::vector<TimingStats> layers;
  std::vector<GroupTiming> groups;
};

// Every layer's weights and every model input, made once before timing.
struct Prepared {
  WeightSet weights;
  std::vector<std::optional<Tensor>> model_inputs;
};

Prepared prepare(const Workload& w) {
  const std::size_t n = w.plan.order.size();
  Prepared p{WeightSet(n), std::vector<std::optional<Tensor>>(n)};
  for (std::size_t pos = 0; pos < n; ++pos) {
    p.weights[pos] = w.weights(pos);
    if (w.layer(pos).op == OpKind::Input) p.model_inputs[pos] = w.model_input(pos);
  }
  return p;
}

// Per-layer samples of `repeats` whole passes with a clock read after every layer, and, when
// `forward` is given, as many passes without per-layer clock reads, the two kinds alternating
// (and swapping order every round) so that both see the same machine state. `warmup` untimed
// rounds first. Each layer sees the cache state, allocation pattern and input data it has in a
// real forward pass, which timing it alone in a loop would not (its weights stay cache-hot there).
std::vector<TimingStats> time_passes(const Workload& w, int warmup, int repeats, TimingStats* forward,
                                     const std::function<void()>& pass_done = {}) {
  const std::size_t n = w.plan.order.size();
  const Prepared prep = prepare(w);
  const Outputs none;
  std::vector<std::vector<double>> samples(n);
  std::vector<double> pass(n), whole;
  for (int r = 0; r < warmup + repeats; ++r) {
    const bool timed = r >= warmup;
    auto whole_pass = [&] {
      const double s = run_range(w, 0, n - 1, none, prep.weights, prep.model_inputs);
      if (timed) whole.push_back(s);
    };
    if (forward && r % 2 == 1) whole_pass();
    run_range(w, 0, n - 1, none, prep.weights, prep.model_inputs, &pass);
    if (forward && r % 2 == 0) whole_pass();
    if (timed)
      for (std::size_t pos = 0; pos < n; ++pos) samples[pos].push_back(pass[pos]);
    if (pass_done) pass_done();
  }
  if (forward) *forward = timing_stats(std::move(whole));
  std::vector<TimingStats> out;
  for (auto& s : samples) out.push_back(timing_stats(std::move(s)));
  return out;
}

// Groups are timed in one streaming pass: each group runs on its own (`warmup` + `repeats`
// times) as soon as its last layer's inputs exist, with the outside inputs it needs kept alive.
std::vector<GroupTiming> time_groups(const Workload& w, const ProfileOptions& o,
                                     const std::vector<LayerRange>& groups,
                                     const std::function<void()>& group_done) {
  const std::size_t n = w.plan.order.size();
  std::vector<std::size_t> keep_output = w.plan.last_use, keep_weights(n);
  for (std::size_t pos = 0; pos < n; ++pos) keep_weights[pos] = pos;
  for (const auto& g : groups)
    for (std::size_t pos = g.first; pos <= g.second; ++pos) {
      keep_weights[pos] = std::max(keep_weights[pos], g.second);
      for (auto in : w.plan.inputs[pos])
        if (in < g.first) keep_output[in] = std::max(keep_output[in], g.second);
    }
  std::vector<std::vector<std::size_t>> free_outputs_at(n), free_weights_at(n);
  for (std::size_t pos = 0; pos < n; ++pos) {
    free_outputs_at[keep_output[pos]].push_back(pos);
    free_weights_at[keep_weights[pos]].push_back(pos);
  }
  std::vector<GroupTiming> out;
  Outputs outputs(n);
  WeightSet weights(n);
  std::vector<std::optional<Tensor>> model_inputs(n);
  for (std::size_t pos = 0; pos < n; ++pos) {
    weights[pos] = w.weights(pos);
    if (w.layer(pos).op == OpKind::Input) model_inputs[pos] = w.model_input(pos);
    outputs[pos] = run_at(
        w, pos, [&](std::size_t q) { return live(outputs, q); }, *weights[pos], live(model_inputs, pos));
    for (const auto& g : groups)
      if (g.second == pos) {
        out.push_back(
            {g.first, g.second, time_group(w, g, outputs, weights, model_inputs, o.warmup, o.repeats)});
        group_done();
      }
    for (auto q : free_outputs_at[pos]) outputs[q].reset();
    for (auto q : free_weights_at[pos]) weights[q].reset(), model_inputs[q].reset();
  }
  return out;
}

Measured measure(const Workload& w, const ProfileOptions& o, bool time_layers,
                 const std::vector<LayerRange>& groups) {
  Measured m;
  const std::size_t total = (time_layers ? std::size_t(o.warmup + o.repeats) : 0) + groups.size();
  std::size_t done = 0;
  const auto unit_done = [&] {
    if (o.progress) o.progress(++done, total);
  };
  if (time_layers) m.layers = time_passes(w, o.warmup, o.repeats, nullptr, unit_done);
  if (!groups.empty()) m.groups = time_groups(w, o, groups, unit_done);
  return m;
}

bool layers_usable(const HostProfile& p, std::size_t n, int repeats) {
  return p.layers.size() == n && std::all_of(p.layers.begin(), p.layers.end(),
                                             [&](const TimingStats& s) { return s.repeats >= repeats; });
}

void check_options(const Graph& graph, const ProfileOptions& o) {
  if (!graph.inferred()) throw Error("profiler: the graph must be shape-inferred");
  if (o.repeats < 1) throw Error(fmt::format("profiler: repeats must be >= 1, got {}", o.repeats));
  if (o.warmup < 0) throw Error(fmt::format("profiler: warmup must be >= 0, got {}", o.warmup));
  if (o.batch < 1) throw Error(fmt::format("profiler: batch must be >= 1, got {}", o.batch));
  for (const auto& g : o.groups)
    if (g.first > g.second || g.second >= graph.size())
      throw Error(fmt::format("profiler: group [{}, {}] outside the {} layers of '{}'", g.first, g.second,
                              graph.size(), graph.name()));
}

// The checks of `profile_model` for passes timed without groups.
void check_pass_options(const Graph& graph, int warmup, int repeats) {
  ProfileOptions o;
  o.warmup = warmup;
  o.repeats = repeats;
  check_options(graph, o);
}

}  // namespace

TimingStats timing_stats(std::vector<double> samples) {
  if (samples.empty()) throw Error("timing_stats: no samples");
  std::sort(samples.begin(), samples.end());
  auto quantile = [&](double q) {
    const double x = q * static_cast<double>(samples.size() - 1);
    const auto i = static_cast<std::size_t>(x);
    const double frac = x - static_cast<double>(i);
    return i + 1 < samples.size() ? samples[i] * (1 - frac) + samples[i + 1] * frac : samples[i];
  };
  double sum = 0.0;
  for (double x : samples) sum += x;
  return {quantile(0.5), quantile(0.75) - quantile(0.25), static_cast<int>(samples.size()),
          sum / static_cast<double>(samples.size())};
}

std::vector<LayerRange> consecutive_groups(std::size_t layers, std::size_t max_length) {
  std::vector<LayerRange> out;
  for (std::size_t len = 2; len <= max_length && len <= layers; ++len)
    for (std::size_t first = 0; first + len <= layers; ++first) out.emplace_back(first, first + len - 1);
  if (layers > max_length) out.emplace_back(0, layers - 1);
  return out;
}

HostProfile profile_model(const Graph& graph, const ProfileOptions& o) {
  check_options(graph, o);
  const Plan plan = make_plan(graph);
  std::optional<HostProfile> cached = o.use_cache ? cached_profile(graph, o, kForwardPass) : std::nullopt;
  const bool layers_cached = cached && layers_usable(*cached, graph.size(), o.repeats);
  std::vector<LayerRange> missing;
  for (const auto& g : o.groups) {
    const GroupTiming* t = layers_cached ? cached->group_or_null(g.first, g.second) : nullptr;
    if (!t || t->stats.repeats < o.repeats) missing.push_back(g);
  }
  if (layers_cached && missing.empty()) return *cached;

  // An InputError naming the layer, not std::bad_alloc midway; B samples hold B x the activations.
  check_forward_pass_memory(graph, host_memory_bytes() / o.batch);
  const Workload w{graph, plan, o.seed, o.batch};
  Measured m = measure(w, o, !layers_cached, missing);
  HostProfile p = layers_cached ? *cached : HostProfile{};
  p.model = graph.name();
  p.host_cpu = host_cpu_model();
  p.basis = "profile";
  p.batch = o.batch;
  p.build_id = profiler_build_id();
  if (!layers_cached) p.layers = std::move(m.layers), p.groups.clear();
  for (auto& g : m.groups) {
    std::erase_if(p.groups,
                  [&](const GroupTiming& old) { return old.first == g.first && old.last == g.last; });
    p.groups.push_back(g);
  }
  if (o.use_cache) cache_profile(graph, o, kForwardPass, p);
  return p;
}

TimingStats time_forward(const Graph& graph, int warmup, int repeats, std::uint64_t seed) {
  check_pass_options(graph, warmup, repeats);
  const Plan plan = make_plan(graph);
  check_forward_pass_memory(graph);
  const Workload w{graph, plan, seed};
  const Prepared prep = prepare(w);
  const std::size_t n = plan.order.size();
  std::vector<double> samples;
  const Outputs none;
  for (int r = 0; r < warmup + repeats; ++r) {
    const double s = run_range(w, 0, n - 1, none, prep.weights, prep.model_inputs);
    if (r >= warmup) samples.push_back(s);
  }
  return timing_stats(samples);
}

PairedTiming time_layers_and_forward(const Graph& graph, int warmup, int repeats, std::uint64_t seed) {
  check_pass_options(graph, warmup, repeats);
  const Plan plan = make_plan(graph);
  const Workload w{graph, plan, seed};
  PairedTiming out;
  out.layers = time_passes(w, warmup, repeats, &out.forward);
  return out;
}

double profiler_clock_s() { return clock_now_s(); }

}  // namespace coinfer
