#include "sim/profile/ssi_profile.hpp"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/forward_pass.hpp"
#include "sim/kernels/layer_runner.hpp"
#include "sim/profile/profiler.hpp"

namespace coinfer {
namespace {

// One SSI layer: its topological position and, for the density being timed, its output mask.
struct SsiLayer {
  std::size_t index = 0;
  kernels::SpatialMask mask;
};

// Seconds of one forward pass in topological order and of each SSI layer in it. With `base` null
// every layer runs dense; otherwise the SSI layers update a copy of `base` (a dense pass's
// activations, copied before the clock starts) in place at their masks' active positions, as a
// frame-to-frame pipeline reuses its buffers.
struct PassTimes {
  double total_s = 0.0;
  std::vector<double> layer_s;  // per SSI layer
};

PassTimes timed_pass(const ForwardPass& fp, const std::vector<Tensor>& inputs,
                     const std::vector<SsiLayer>& layers, const std::vector<Tensor>* base,
                     std::vector<Tensor>& acts) {
  const Graph& g = fp.graph();
  std::vector<std::ptrdiff_t> ssi_of(g.size(), -1);
  acts.assign(g.size(), Tensor());
  for (std::size_t k = 0; k < layers.size(); ++k) {
    ssi_of[layers[k].index] = static_cast<std::ptrdiff_t>(k);
    if (base) acts[layers[k].index] = (*base)[layers[k].index];
  }
  const auto in = g.input_layers();
  for (std::size_t k = 0; k < in.size(); ++k) acts[in[k]] = inputs[k];
  PassTimes t{0.0, std::vector<double>(layers.size(), 0.0)};
  for (std::size_t i : g.topological_order()) {
    if (g.layer(i).op == OpKind::Input) continue;
    const std::ptrdiff_t k = ssi_of[i];
    const double t0 = profiler_clock_s();
    if (base && k >= 0) {
      const auto& w = fp.weights(i);
      kernels::ssi_conv2d_into(acts[fp.producers(i).front()], w.weight, w.bias,
                               kernels::conv_params(g.layer(i).attrs),
                               layers[static_cast<std::size_t>(k)].mask, acts[i]);
    } else {
      acts[i] = fp.run_layer(i, acts);
    }
    const double dt = profiler_clock_s() - t0;
    t.total_s += dt;
    if (k >= 0) t.layer_s[static_cast<std::size_t>(k)] = dt;
  }
  return t;
}

// Per-pass samples of one kind (dense or SSI) at one density.
struct PassSamples {
  std::vector<double> total_s, layers_s;
  std::vector<std::vector<double>> layer_s;  // [SSI layer][repeat]

  void add(const PassTimes& t) {
    total_s.push_back(t.total_s);
    layers_s.push_back(std::accumulate(t.layer_s.begin(), t.layer_s.end(), 0.0));
    layer_s.resize(t.layer_s.size());
    for (std::size_t k = 0; k < t.layer_s.size(); ++k) layer_s[k].push_back(t.layer_s[k]);
  }
};

double median_ms(std::vector<double> samples_s) { return timing_stats(std::move(samples_s)).median_s * 1e3; }

void check_options(const SsiProfileOptions& o) {
  if (o.densities.empty()) throw InputError("", "densities", "expected at least one density");
  for (std::size_t k = 0; k < o.densities.size(); ++k)
    if (!(o.densities[k] > 0.0 && o.densities[k] <= 1.0))
      throw InputError("", fmt::format("densities[{}]", k),
                       fmt::format("expected a density in (0, 1], got {}", o.densities[k]));
  if (o.repeats < 1)
    throw InputError("", "repeats", fmt::format("expected an integer >= 1, got {}", o.repeats));
}

}  // namespace

std::vector<std::size_t> ssi_layer_positions(const Graph& graph, int from_group) {
  const std::string first = fmt::format("conv{}", from_group);
  const auto& order = graph.topological_order();
  const auto start =
      std::find_if(order.begin(), order.end(), [&](std::size_t i) { return graph.layer(i).name == first; });
  if (start == order.end())
    throw InputError(
        "", "from_group",
        fmt::format("model '{}' has no layer '{}' (SSI starts at the first layer of conv group {}, "
                    "named conv{})",
                    graph.name(), first, from_group, from_group));
  std::vector<std::size_t> positions;
  for (auto it = start; it != order.end(); ++it)
    if (graph.layer(*it).op == OpKind::Conv2d) positions.push_back(*it);
  return positions;
}

kernels::SpatialMask random_mask(std::int64_t height, std::int64_t width, double density,
                                 std::uint64_t seed) {
  if (!(density >= 0.0 && density <= 1.0))
    throw Error(fmt::format("random_mask: density must be in [0, 1], got {}", density));
  kernels::SpatialMask mask = kernels::SpatialMask::filled(height, width, false);
  const auto n = static_cast<std::uint64_t>(mask.active.size());
  const auto on = static_cast<std::uint64_t>(std::llround(density * static_cast<double>(n)));
  std::vector<std::uint64_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0);
  std::mt19937_64 rng(seed);
  // Partial Fisher-Yates: position k swaps with a uniform pick among [k, n) (modulo draw: the bias is
  // below n / 2^64).
  for (std::uint64_t k = 0; k < on; ++k) {
    std::swap(positions[k], positions[k + rng() % (n - k)]);
    mask.active[positions[k]] = 1;
  }
  return mask;
}

std::vector<SsiProfileRow> profile_ssi(const Graph& graph, const SsiProfileOptions& o) {
  check_options(o);
  const auto positions = ssi_layer_positions(graph, o.from_group);
  const ForwardPass fp(graph, o.seed);
  const std::vector<Tensor> inputs = fp.make_inputs(derive_seed(o.seed, "inputs"));
  std::vector<Tensor> dense_acts, ssi_acts;
  std::vector<SsiProfileRow> rows;
  for (const double density : o.densities) {
    std::vector<SsiLayer> layers;
    for (std::size_t i : positions) {
      const Shape& s = graph.layer(i).output_shape;
      const auto seed = derive_seed(o.seed, fmt::format("mask {} {}", graph.layer(i).name, density));
      layers.push_back({i, random_mask(s[1], s[2], density, seed)});
    }
    if (rows.empty()) {  // the untimed warm-up pair
      timed_pass(fp, inputs, layers, nullptr, dense_acts);
      timed_pass(fp, inputs, layers, &dense_acts, ssi_acts);
    }
    PassSamples dense, ssi;
    for (int r = 0; r < o.repeats; ++r) {
      dense.add(timed_pass(fp, inputs, layers, nullptr, dense_acts));
      ssi.add(timed_pass(fp, inputs, layers, &dense_acts, ssi_acts));
    }
    SsiProfileRow row{density,
                      median_ms(dense.total_s),
                      median_ms(ssi.total_s),
                      median_ms(dense.layers_s),
                      median_ms(ssi.layers_s),
                      {},
                      {}};
    for (std::size_t k = 0; k < positions.size(); ++k) {
      row.dense_layer_ms.push_back(median_ms(dense.layer_s[k]));
      row.ssi_layer_ms.push_back(median_ms(ssi.layer_s[k]));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

void write_ssi_profile_csv(const std::vector<SsiProfileRow>& rows, std::ostream& out) {
  out << "density,dense_ms,ssi_ms,time_ratio\n";
  for (const auto& r : rows)
    out << fmt::format("{:g},{:.3f},{:.3f},{:.4f}\n", r.density, r.dense_ms, r.ssi_ms, r.time_ratio());
}

void keep_freed_memory_in_process() {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);  // large blocks from the heap ...
  mallopt(M_TRIM_THRESHOLD, -1);       // ... which is never given back
}

}  // namespace coinfer
