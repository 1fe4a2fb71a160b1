#pragma once
/// Weight partition of one fully connected layer over k workers and the GO (thesis sec. 5,
/// dissertation sec. 2.2.4), with MoDNN's hybrid SpMV / GEMV choice per block (sec. 5.1).
///
/// - `Fc1d`: the baseline (fc_1d.hpp): the weight matrix cut along its longer side into k
///   consecutive parts proportional to the capabilities. A dense layer is one GEMV block per
///   worker; a sparse layer's parts keep only their non-zeros.
/// - `MsccFgcp`: MSCC co-clusters (mscc.hpp, k clusters) then FGCP (fgcp.hpp) places the outliers,
///   offloading the sparsest units to the GO. Needs a sparse layer.
///
/// A sparse layer's weights are generated (sparse_weights.hpp: seeded Gaussian, magnitude-pruned
/// per input row to the sparsity; no pretrained pruned VGG-16 is reachable here), so every result
/// that depends on them depends on that generator and its seed.
///
/// Each block (a worker's or the GO's non-zeros) runs as SpMV or GEMV by `choose_matvec` with
/// SPT(n) = spmv_s_per_nonzero n and GET(r, c) = gemv_s_per_element r c over the block's distinct
/// rows r and columns c, i.e. SpMV exactly when the block density is below Thld.
///
///     FcSplit s = split_fc_layer({25088, 4096, 0.96, 7}, FcMethod::MsccFgcp, {1, 1, 1, 1}, rates,
///     rates, 43.8e6, 4);
#include <cstdint>
#include <vector>

#include "partitioners/modnn/sparse_weights.hpp"
#include "partitioners/modnn/spmv_threshold.hpp"
#include "sim/cost/partial_cost.hpp"

namespace coinfer::modnn {

enum class FcMethod { Fc1d, MsccFgcp };

struct FcLayerSpec {
  std::int64_t inputs = 1;          ///< rows of the weight matrix
  std::int64_t units = 1;           ///< columns
  double sparsity = 0.0;            ///< 0: dense
  std::uint64_t seed = 0;           ///< weight generator and MSCC seed
  std::int64_t planted_blocks = 0;  ///< generator: 0 none, b > 0 b hidden diagonal blocks (shuffled)
  double block_scale = 4.0;         ///< generator: std of in-block weights relative to the others
};

struct FcBlock {
  std::vector<std::int64_t> input_rows;  ///< distinct inputs it needs, ascending
  std::int64_t output_values = 0;        ///< distinct (partial) outputs it sends back
  std::int64_t nonzeros = 0;
  MatVecKind kind = MatVecKind::Gemv;
  double time_s = 0.0;
};

struct FcSplit {
  std::vector<FcBlock> workers;
  FcBlock go;                        ///< the GO's own block (inputs local: no transfer)
  std::int64_t transfer_values = 0;  ///< sum over workers of inputs + outputs
};

/// Throws `Error` for MsccFgcp on a dense layer or bad capabilities.
FcSplit split_fc_layer(const FcLayerSpec& layer, FcMethod method, const std::vector<double>& capabilities,
                       const FcRates& worker, const FcRates& go, double throughput_bps,
                       std::int64_t bytes_per_value);

/// Owner of every non-zero of `pattern` (worker index, or kGroupOwner = -1 for the GO) under
/// `method`, the assignment `split_fc_layer` costs; MSCC + FGCP uses `seed` for the clustering.
std::vector<int> fc_owner(const SparsePattern& pattern, FcMethod method,
                          const std::vector<double>& capabilities, const FcRates& worker, const FcRates& go,
                          double throughput_bps, std::int64_t bytes_per_value, std::uint64_t seed);

/// Time and kernel of a block of `nonzeros` over `rows` x `cols` distinct rows and columns.
void cost_block(FcBlock& block, std::int64_t rows, std::int64_t cols, const FcRates& rates);

}  // namespace coinfer::modnn
