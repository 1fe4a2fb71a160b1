#pragma once
/// B inputs run through one layer together (batch size B), the way the profiler times a layer
/// at batch B (JointDNN Fig. 8 / 10b: the cost of a batch is not B x the cost of one input).
///
/// A batched tensor holds B samples back to back: shape {B, sample shape...}. What batching
/// changes depends on the layer:
/// - conv2d: per group, the B samples' patch-to-column matrices sit side by side in one
///   (IC/g KH KW) x (B OH OW) matrix and one GEMM multiplies the weight by all of them (chunked
///   so that the column matrix stays under `kBatchColumnFloats` floats, as frameworks bound their
///   convolution workspace); the GEMM's (OC/g) x (B OH OW) result is scattered into the samples.
/// - fully connected (dense): the B samples are the columns of one GEMM, W (units x F) times
///   X^T (F x B), instead of B matrix-vector products (from `kFcGemmMinColumns` columns on); a
///   sequence sample (T, F) adds T columns each.
/// - element-wise layers (activations, add, dropout, flatten) run once over the whole batch, which
///   is what B samples cost.
/// - every other layer (pooling, LRN, batch norm, softmax, depthwise and transposed convolution,
///   upsample, concat, sparse fc, LSTM) runs sample by sample on a copy of each sample's slice:
///   their work is per sample, and the copy is one extra pass over the sample's data.
///
///
/// Training's batched pair (`forward_layer_batch`, `backward_layer_batch`) covers the GEMM layers,
/// conv2d and dense fc; their backward kernels take the batch the same way (one GEMM for the input
/// gradient, one for the weight gradient summed over the batch).
///
///     Tensor xb = random_normal({8, 3, 32, 32}, 1);          // 8 samples
///     Tensor yb = run_layer_batch(layer, {&xb}, w, 8);      // {8, OC, OH, OW}
#include <cstdint>
#include <vector>

#include "sim/kernels/conv.hpp"
#include "sim/kernels/layer_runner.hpp"

namespace coinfer::kernels {

/// Largest batched column matrix conv2d_batch builds at once (2^22 floats, 16 MB, a last-level
/// cache's order); a batch whose matrix would be larger is multiplied in chunks of samples (at
/// least one sample per chunk). Unbounded, a batch of 32 AlexNet conv2 inputs builds a 112 MB matrix
/// that the GEMM then streams from memory: 2.4x slower than 32 single calls (batch_kernel_bench).
inline constexpr std::int64_t kBatchColumnFloats = std::int64_t{1} << 22;

/// Largest column matrix the training step's batched conv2d builds at once, forward
/// (forward_layer_batch) and backward (conv2d_batch_backward): 2^18 floats, 1 MB, a core's L2 order.
/// A training step runs small images at large batches, where kBatchColumnFloats' 16 MB matrices made
/// the conv layers slower than B single calls (batch_backward_bench, on a loaded host: LeNet conv1 at
/// B = 64-128 forward 4.2x, backward 2.0x; ConvNet conv1 forward 2.5-2.7x); the backward also holds
/// dY^T and a GEMM result beside the matrix and passes over it twice. With 1 MB, the same layers
/// came to 0.7-1.4x (batch_backward_bench, README's AdaLearner section).
inline constexpr std::int64_t kTrainColumnFloats = std::int64_t{1} << 18;

/// Fewest columns (samples x sequence steps) fully_connected_batch multiplies as one GEMM; fewer
/// run as that many matrix-vector products. The GEMM packs the whole weight matrix on every call,
/// which two columns do not pay back (AlexNet fc6 at batch 2: 1.6x slower than two GEMVs,
/// batch_kernel_bench), four do.
inline constexpr std::int64_t kFcGemmMinColumns = 4;

/// conv2d of `batch` samples (input {B, C, H, W}) by one GEMM per group and chunk (chunks of column
/// matrices up to `column_floats` floats); equal to B conv2d calls. Throws `Error` as conv2d does, and
/// when the input's leading dimension is not B.
Tensor conv2d_batch(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& params,
                    std::int64_t batch, std::int64_t column_floats = kBatchColumnFloats);

/// fully_connected of `batch` samples (input {B, sample...}) as one GEMM; equal to B calls.
Tensor fully_connected_batch(const Tensor& input, const Tensor& weight, const Tensor& bias,
                             std::int64_t batch);

/// Gradients of conv2d_batch given dL/dy {B, OC, OH, OW}, per group and chunk of samples (as the
/// forward): dX by one GEMM W[g]^T dY[g] over the chunk's B*OH*OW columns, then column-to-patch per
/// sample; dW[g] summed over the batch by one GEMM of the chunk's side-by-side column matrix with
/// dY[g]^T; db the sums over batch and plane (empty unless `has_bias`). Equal, within float rounding,
/// to B conv2d_backward calls with their weight and bias gradients summed. Throws `Error` as
/// conv2d_backward does, and when input or grad_output do not hold B samples.
Gradients conv2d_batch_backward(const Tensor& input, const Tensor& weight, bool has_bias,
                                const Tensor& grad_output, const ConvParams& params, std::int64_t batch);

/// Gradients of fully_connected_batch given dL/dy ({B, units}, or {B, T, units} for sequences): with
/// the B samples as the rows of X (B*T x F), dX = dY W (one GEMM), dW = dY^T X (one GEMM summed over
/// the batch), db the column sums of dY. Equal, within float rounding, to B fully_connected_backward
/// calls with their weight and bias gradients summed. Throws `Error` on inconsistent shapes.
Gradients fully_connected_batch_backward(const Tensor& input, const Tensor& weight, bool has_bias,
                                         const Tensor& grad_output, std::int64_t batch);

/// Whether `layer` has a batched backward (`backward_layer_batch`): conv2d and dense fc, the layers
/// whose work is a GEMM that batching widens.
bool has_batched_backward(const Layer& layer);

/// The training step's batched forward of a conv2d or dense fc layer (has_batched_backward): as
/// run_layer_batch, with conv2d's column matrices bounded by kTrainColumnFloats. Throws `Error` for
/// another op and on inconsistent shapes.
Tensor forward_layer_batch(const Layer& layer, const Tensor& input, const LayerWeights& weights,
                           std::int64_t batch);

/// `backward_layer` of a conv2d or dense fc layer for `batch` samples: `input` and `grad_output` are
/// {B, ...}; `inputs[0]` of the result is {B, ...} and the parameter gradients are summed over the
/// batch. Throws `Error` for another op (see has_batched_backward) and on inconsistent shapes.
LayerGradients backward_layer_batch(const Layer& layer, const Tensor& input, const LayerWeights& weights,
                                    const Tensor& grad_output, std::int64_t batch);

/// `run_layer` for `batch` samples: every input is {B, sample shape}, the output is {B, output
/// shape}. Throws `Error` as `run_layer` does, and when an input does not hold B samples.
Tensor run_layer_batch(const Layer& layer, const std::vector<const Tensor*>& inputs,
                       const LayerWeights& weights, std::int64_t batch);

/// Sample `b` of a batched tensor, copied out with the sample's shape (the tensor's shape without
/// its leading B); throws `Error` when b is out of range.
Tensor batch_sample(const Tensor& batched, std::int64_t b);

/// N samples of one shape S copied back to back into one batched tensor {N, S...}, the inverse of
/// `batch_sample` (`batch_sample(stack_batch(xs), n)` equals `*xs[n]`):
///
///     Tensor xb = stack_batch({&x0, &x1});   // x0, x1 of shape {3, 4}: xb is {2, 3, 4}
///
/// Throws `Error` for no samples, a null pointer, or a sample whose shape differs from the first's
/// (naming both shapes and the sample's index).
Tensor stack_batch(const std::vector<const Tensor*>& samples);

}  // namespace coinfer::kernels
