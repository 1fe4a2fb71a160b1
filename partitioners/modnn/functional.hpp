#pragma once
/// Functional mode for MoDNN's partitions: execute a split on real tensors with the host kernels,
/// so tests can show the distributed output equals the single-device one.
///
/// Conv stages (BODP or 2-D grid, conv_split.hpp): each node cuts the part of the stage input it
/// reads, pads it where its receptive field leaves the input (zeros for convolution, -inf for max
/// pooling: what the layers' own padding gives), runs every layer of the stage with padding 0 on
/// its slice and contributes its region of the stage output. Every output element is computed
/// from exactly the same inputs and weights as on one device. The values are bitwise equal when
/// the arithmetic is exact (integer-valued tensors, as one test uses); with real weights they
/// differ only by the GEMM's rounding (Eigen takes different vector paths for different numbers
/// of output columns): |y - y_ref| <= 1e-5 * max |y_ref| in the tests.
///
/// FC layers (fc-1d, MSCC + FGCP; fc_split.hpp `fc_owner`): each node multiplies its non-zeros
/// into a partial output; the GO sums the partials node by node (workers in order, then its own).
/// This reorders floating-point sums, so the result matches the single-device SpMV within fp32
/// rounding: |y - y_ref| <= 1e-5 * sum_i |w_ij x_i| per output (the tests' tolerance).
///
///     Tensor y = run_conv_stage_split(graph, weights, stage, nodes, x);
///     Tensor r = run_conv_stage_single(graph, weights, stage, x);            // y == r
#include <vector>

#include "partitioners/modnn/conv_split.hpp"
#include "partitioners/modnn/sparse_weights.hpp"
#include "sim/kernels/dense.hpp"
#include "sim/kernels/layer_runner.hpp"

namespace coinfer::modnn {

/// Weights of every layer, by layer index (e.g. from ForwardPass::weights).
using WeightsByLayer = std::vector<kernels::LayerWeights>;

/// The stage output assembled from the nodes' regions. `input` is the stage input (the output of
/// the layer before the stage). Throws `Error` for an average pooling with padding (its divisor
/// depends on the padding convention) or a node region left uncovered.
Tensor run_conv_stage_split(const Graph& graph, const WeightsByLayer& weights, const Stage& stage,
                            const std::vector<NodeRegions>& nodes, const Tensor& input);

/// The stage on one device: its layers run in turn with the host kernels.
Tensor run_conv_stage_single(const Graph& graph, const WeightsByLayer& weights, const Stage& stage,
                             const Tensor& input);

/// Selects every non-zero in `units_by_inputs`.
inline constexpr int kAllNodes = -2;

/// The non-zeros of `node` (or all, kAllNodes) as a units x inputs CSR matrix for the SpMV kernel.
kernels::CsrMatrix units_by_inputs(const SparseWeights& weights, const std::vector<int>& owner, int node);

/// y_j = sum_i w_ij x_i with the non-zeros of `weights` spread over nodes by `owner` (worker index
/// in [0, workers) or -1 for the GO); partial sums reduced at the GO in node order.
Tensor run_fc_split(const SparseWeights& weights, const std::vector<int>& owner, std::size_t workers,
                    const Tensor& x);

/// The single-device result: one SpMV of the whole matrix with the host kernel.
Tensor run_fc_single(const SparseWeights& weights, const Tensor& x);

}  // namespace coinfer::modnn
