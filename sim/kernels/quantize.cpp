#include "sim/kernels/quantize.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::kernels {
namespace {

float max_abs(const Tensor& x) {
  float m = 0.0f;
  for (float v : x.data) {
    if (!std::isfinite(v)) throw Error("quantize: tensor holds a NaN or an infinity");
    m = std::max(m, std::abs(v));
  }
  return m;
}

std::int64_t rows_of(const Shape& s) { return s.empty() ? 1 : s[0]; }

}  // namespace

Int8Tensor quantize_int8(const Tensor& x) { return quantize_symmetric(x, 8); }

Int8Tensor quantize_symmetric(const Tensor& x, int bits) {
  if (bits < 2 || bits > 8) throw Error(fmt::format("quantize: expected 2 to 8 bits, got {}", bits));
  const long levels = (1L << (bits - 1)) - 1;  // 127 for 8 bits, 7 for 4
  Int8Tensor q{x.shape, std::vector<std::int8_t>(x.data.size()), 1.0f};
  const float m = max_abs(x);
  q.scale = m > 0.0f ? m / static_cast<float>(levels) : 1.0f;
  // round to nearest, so |x - scale * q| <= scale / 2; |x| <= levels * scale keeps q in range
  for (std::size_t i = 0; i < x.data.size(); ++i)
    q.values[i] = static_cast<std::int8_t>(std::clamp(std::lround(x.data[i] / q.scale), -levels, levels));
  return q;
}

Tensor dequantize(const Int8Tensor& q) {
  Tensor t(q.shape);
  for (std::size_t i = 0; i < q.values.size(); ++i) t.data[i] = q.scale * static_cast<float>(q.values[i]);
  return t;
}

std::int64_t OneBitTensor::size_bytes() const {
  return static_cast<std::int64_t>(bits.size()) + 8 * static_cast<std::int64_t>(positive_level.size());
}

OneBitTensor quantize_one_bit(const Tensor& x) {
  max_abs(x);  // rejects NaN / infinity
  const std::int64_t rows = rows_of(x.shape), cols = rows ? x.size() / rows : 0;
  OneBitTensor q{x.shape, std::vector<std::uint8_t>((x.data.size() + 7) / 8, 0),
                 std::vector<float>(static_cast<std::size_t>(rows), 0.0f),
                 std::vector<float>(static_cast<std::size_t>(rows), 0.0f)};
  for (std::int64_t r = 0; r < rows; ++r) {
    double pos = 0.0, neg = 0.0;
    std::int64_t n_pos = 0;
    for (std::int64_t c = 0; c < cols; ++c) {
      const auto i = static_cast<std::size_t>(r * cols + c);
      const float v = x.data[i];
      if (v >= 0.0f) {  // threshold 0: x >= 0 -> 1, x < 0 -> 0
        q.bits[i / 8] |= static_cast<std::uint8_t>(1u << (i % 8));
        pos += v;
        ++n_pos;
      } else {
        neg += v;
      }
    }
    const auto k = static_cast<std::size_t>(r);
    q.positive_level[k] = n_pos ? static_cast<float>(pos / static_cast<double>(n_pos)) : 0.0f;
    q.negative_level[k] = n_pos < cols ? static_cast<float>(neg / static_cast<double>(cols - n_pos)) : 0.0f;
  }
  return q;
}

Tensor dequantize(const OneBitTensor& q) {
  Tensor t(q.shape);
  const std::int64_t rows = rows_of(q.shape), cols = rows ? t.size() / rows : 0;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      const auto i = static_cast<std::size_t>(r * cols + c);
      const bool bit = (q.bits[i / 8] >> (i % 8)) & 1u;
      t.data[i] =
          bit ? q.positive_level[static_cast<std::size_t>(r)] : q.negative_level[static_cast<std::size_t>(r)];
    }
  return t;
}

OneBitTensor OneBitQuantizer::quantize(const Tensor& x) {
  if (residual_.empty()) residual_ = Tensor(x.shape);
  if (residual_.shape != x.shape)
    throw Error(fmt::format("1-bit quantizer: shape {} differs from the previous {}",
                            shape_to_string(x.shape), shape_to_string(residual_.shape)));
  Tensor corrected = x;
  corrected.vector() += residual_.vector();  // eq. 3.9: Q(G[k] + delta[k-1])
  OneBitTensor q = quantize_one_bit(corrected);
  residual_.vector() = corrected.vector() - dequantize(q).vector();  // eq. 3.10
  return q;
}

TernaryTensor terngrad_quantize(const Tensor& x, Rng& rng) {
  TernaryTensor q{x.shape, std::vector<std::int8_t>(x.data.size(), 0), max_abs(x)};
  if (q.scale == 0.0f) return q;
  for (std::size_t i = 0; i < x.data.size(); ++i) {
    const float v = x.data[i];
    // b_i ~ Bernoulli(|x_i| / s): E[s sign(x_i) b_i] = s sign(x_i) |x_i| / s = x_i
    if (rng.uniform() < std::abs(v) / q.scale) q.values[i] = v >= 0.0f ? 1 : -1;
  }
  return q;
}

Tensor dequantize(const TernaryTensor& q) {
  Tensor t(q.shape);
  for (std::size_t i = 0; i < q.values.size(); ++i) t.data[i] = q.scale * static_cast<float>(q.values[i]);
  return t;
}

}  // namespace coinfer::kernels
