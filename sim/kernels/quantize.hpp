#pragma once
/// Quantizers for tensors sent between devices:
/// - int8: symmetric, one scale per tensor (q = round(x / scale), scale = max|x| / 127);
/// - 1-bit with error feedback (Seide et al.; AdaLearner,
///   [Mao-PhD §3.1.3, eq. 3.4-3.5; §3.4.1, eq. 3.9-3.10]): sign bit per element, and per group the mean
///   of the non-negative and of the negative values as reconstruction levels (sec. 3.4.2: per column of
///   an fc weight matrix, per filter of a conv weight; one group for a bias vector);
/// - TernGrad (sec. 3.1.3 eq. 3.6): s * sign(x) * b with s = max|x| and b ~ Bernoulli(|x| / s), an
///   unbiased estimate of x.
///
///     Int8Tensor q = quantize_int8(x);   Tensor y = dequantize(q);       // |y - x| <= q.scale / 2
///     OneBitQuantizer enc;               Tensor g1 = dequantize(enc.quantize(grad));
///     Rng rng(7);                        Tensor t = dequantize(terngrad_quantize(grad, rng));
#include <cstdint>
#include <vector>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

struct Int8Tensor {
  Shape shape;
  std::vector<std::int8_t> values;
  float scale = 1.0f;  ///< x ~= scale * q
  /// Bytes sent: one per element plus the fp32 scale.
  std::int64_t size_bytes() const { return static_cast<std::int64_t>(values.size()) + 4; }
};

/// Throws `Error` if x holds a NaN or an infinity.
Int8Tensor quantize_int8(const Tensor& x);
/// Symmetric uniform quantization to `bits` in [2, 8], one scale per tensor: q = round(x / scale) in
/// [-L, L] with L = 2^(bits-1) - 1 and scale = max|x| / L (quantize_int8 is bits = 8). For low-precision
/// weights (an NPU model, schedulers/cbo/digits_trace.hpp). Throws `Error` for other bit widths or a
/// NaN / infinity.
Int8Tensor quantize_symmetric(const Tensor& x, int bits);
Tensor dequantize(const Int8Tensor& q);

/// Which elements share a pair of 1-bit reconstruction levels. The tensor is viewed as a matrix of
/// rows = shape[0] by the remaining elements (PyTorch layouts: an fc weight is (out, in), a conv weight
/// (out, in / groups, kh, kw)).
enum class OneBitGroups {
  Rows,     ///< one group per row: per filter of a conv weight, per output unit of an fc weight
  Columns,  ///< one group per column: per column of an fc weight matrix (Seide et al.'s 1-bit SGD)
  Whole,    ///< the whole tensor is one group (a bias vector)
};

/// AdaLearner's grouping (sec. 3.4.2) for a parameter gradient of this shape: rank 1 (a bias) Whole,
/// rank 2 (an fc weight) Columns, rank 3 or more (a conv filter bank) Rows, i.e. per filter.
OneBitGroups one_bit_groups_for(const Shape& shape);

/// 1-bit codes of a tensor and the two reconstruction levels of each group.
struct OneBitTensor {
  Shape shape;
  OneBitGroups groups = OneBitGroups::Rows;
  std::vector<std::uint8_t> bits;     ///< packed, 1 = non-negative; element i is bit i % 8 of byte i / 8
  std::vector<float> positive_level;  ///< per group: mean of its non-negative values (0 if none)
  std::vector<float> negative_level;  ///< per group: mean of its negative values (0 if none)
  /// Bytes sent: packed bits plus two fp32 levels per group.
  std::int64_t size_bytes() const;
};

/// One-shot 1-bit quantization (threshold 0), no error feedback. Since the levels are the group's
/// means, the decoded tensor keeps every group's sum. Throws `Error` for a NaN or an infinity.
OneBitTensor quantize_one_bit(const Tensor& x, OneBitGroups groups);
/// With AdaLearner's grouping for x's shape (one_bit_groups_for).
OneBitTensor quantize_one_bit(const Tensor& x);
Tensor dequantize(const OneBitTensor& q);
/// into += dequantize(q), without the temporary: the GO's sum of its workers' 1-bit gradients in
/// unquantized form (sec. 3.4.2). Throws `Error` if the shapes differ.
void add_dequantized(Tensor& into, const OneBitTensor& q);

/// 1-bit quantization with error feedback: the residual of step k - 1 is added before quantizing
/// step k (eq. 3.9), and the new residual is what the codes failed to carry (eq. 3.10, written for the
/// corrected input as in Seide et al.): e_k = (x_k + e_{k-1}) - Q^-1(Q(x_k + e_{k-1})).
/// Hence sum_k Q^-1(...) = sum_k x_k - e_K: the decoded sum tracks the input sum up to one residual.
class OneBitQuantizer {
 public:
  /// Quantizes with one_bit_groups_for(x.shape). Throws `Error` if x's shape differs from the previous
  /// call's.
  OneBitTensor quantize(const Tensor& x);
  const Tensor& residual() const { return residual_; }
  void reset() { residual_ = Tensor(); }

 private:
  Tensor residual_;
};

struct TernaryTensor {
  Shape shape;
  std::vector<std::int8_t> values;  ///< -1, 0 or +1
  float scale = 0.0f;               ///< s = max |x|
  /// Bytes sent: 2 bits per element (rounded up) plus the fp32 scale.
  std::int64_t size_bytes() const { return (static_cast<std::int64_t>(values.size()) * 2 + 7) / 8 + 4; }
};

/// TernGrad: values[i] = sign(x_i) with probability |x_i| / max|x|, else 0; E[dequantize] = x.
TernaryTensor terngrad_quantize(const Tensor& x, Rng& rng);
Tensor dequantize(const TernaryTensor& q);

}  // namespace coinfer::kernels
