// MSCC (MoDNN modified spectral co-clustering, [MoDNN §5.2]) on a VGG-16 FC6-shaped sparse
// layer: 25088 x 4096 at 96% sparsity (the thesis sparsifies VGG-16's FC layers to 70-96%, sec. 7.3;
// FC6's connectivity can drop by 95.6%, sec. 2.3). No pruned VGG-16 weights are reachable here, so
// the weights are GENERATED (seeded Gaussian, magnitude-pruned per row, see sparse_weights.hpp):
//   random  - no structure, like i.i.d. pruning; the reference for the outside fraction is a
//             random balanced assignment, which leaves 1 - 1/k of the non-zeros outside;
//   planted - 4 planted diagonal blocks (in-block std 2x, rows / columns shuffled); pruning then
//             keeps about 7% of the weights off the blocks, which is the outside fraction of the
//             planted partition (reported as planted_frac, the target for 4 clusters).
// Reported per run: wall time of mscc_cluster (partial SVD + k-means, 10 restarts), the outside
// count, the outside fraction and its ratio to the random-assignment reference 1 - 1/k, the share
// of rows in the largest cluster (a degenerate one-cluster answer would have few outside), and the
// wall time of generating the matrix (measured once, a reference for scale).
//
//     ./build-modnn/bench/mscc_bench --benchmark_counters_tabular=true
#include <algorithm>
#include <chrono>
#include <vector>

#include <benchmark/benchmark.h>

#include "partitioners/modnn/mscc.hpp"
#include "partitioners/modnn/sparse_weights.hpp"

namespace {

using coinfer::modnn::SparseWeights;

struct Generated {
  SparseWeights weights;
  double generate_s = 0.0;
};

const Generated& fc6(bool planted) {
  auto make = [](bool with_blocks) {
    coinfer::modnn::SparseWeightsSpec spec{.rows = 25088, .cols = 4096, .sparsity = 0.96, .seed = 1};
    if (with_blocks) {
      spec.planted_blocks = 4;
      spec.block_scale = 2.0;
      spec.shuffle = true;
    }
    const auto t0 = std::chrono::steady_clock::now();
    Generated g{coinfer::modnn::generate_sparse_weights(spec), 0.0};
    g.generate_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return g;
  };
  static const Generated random = make(false);
  static const Generated blocks = make(true);
  return planted ? blocks : random;
}

void BM_MsccFc6(benchmark::State& state) {
  const auto clusters = state.range(0);
  const bool planted = state.range(1) != 0;
  const auto& g = fc6(planted);
  coinfer::modnn::MsccResult r;
  for (auto _ : state) {
    r = coinfer::modnn::mscc_cluster({g.weights.pattern, clusters, 42});
    benchmark::DoNotOptimize(r.inside);
  }
  const double nnz = double(g.weights.pattern.entries.size());
  const double fraction = double(r.outside) / nnz;
  const double reference = 1.0 - 1.0 / double(clusters);
  state.counters["nonzeros"] = nnz;
  state.counters["outside"] = double(r.outside);
  state.counters["outside_frac"] = fraction;
  state.counters["vs_random_assign"] = fraction / reference;
  state.counters["sigma2"] = r.singular_values.size() > 1 ? r.singular_values[1] : 0.0;
  state.counters["generate_s"] = g.generate_s;
  std::vector<double> rows(std::size_t(clusters), 0.0);
  for (const int c : r.row_cluster) rows[std::size_t(c)] += 1.0;
  state.counters["max_row_share"] =
      *std::max_element(rows.begin(), rows.end()) / double(r.row_cluster.size());
  if (planted) {
    double in = 0.0;
    for (const auto& e : g.weights.pattern.entries)
      in += g.weights.row_block[e.row] == g.weights.col_block[e.col];
    state.counters["planted_frac"] = 1.0 - in / nnz;
  }
  state.SetLabel(planted ? "planted" : "random");
}

}  // namespace

BENCHMARK(BM_MsccFc6)
    ->ArgNames({"clusters", "planted"})
    ->ArgsProduct({{4, 2, 3}, {0, 1}})
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

BENCHMARK_MAIN();
