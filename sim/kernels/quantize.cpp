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

OneBitGroups one_bit_groups_for(const Shape& shape) {
  if (shape.size() <= 1) return OneBitGroups::Whole;
  return shape.size() == 2 ? OneBitGroups::Columns : OneBitGroups::Rows;
}

namespace {

// The rows x cols matrix view of a shape (rows = shape[0]) and the group of each element under `g`.
struct GroupView {
  std::int64_t rows = 1, cols = 0;
  OneBitGroups groups = OneBitGroups::Whole;
  GroupView(const Shape& s, OneBitGroups g) : rows(rows_of(s)), groups(g) {
    cols = rows ? shape_elements(s) / rows : 0;
  }
  std::size_t count() const {
    switch (groups) {
      case OneBitGroups::Rows:
        return static_cast<std::size_t>(rows);
      case OneBitGroups::Columns:
        return static_cast<std::size_t>(cols);
      case OneBitGroups::Whole:
        break;
    }
    return 1;
  }
};

// Calls f(i, group) for every element i in order; the matrix walk keeps the group a loop counter.
template <class F>
void for_each_grouped(const GroupView& v, F f) {
  std::size_t i = 0;
  for (std::int64_t r = 0; r < v.rows; ++r)
    for (std::int64_t c = 0; c < v.cols; ++c, ++i)
      f(i, static_cast<std::size_t>(v.groups == OneBitGroups::Rows      ? r
                                    : v.groups == OneBitGroups::Columns ? c
                                                                        : 0));
}

bool bit_of(const OneBitTensor& q, std::size_t i) { return (q.bits[i / 8] >> (i % 8)) & 1u; }

}  // namespace

OneBitTensor quantize_one_bit(const Tensor& x, OneBitGroups groups) {
  max_abs(x);  // rejects NaN / infinity
  const GroupView view(x.shape, groups);
  const std::size_t n_groups = view.count();
  OneBitTensor q{x.shape, groups, std::vector<std::uint8_t>((x.data.size() + 7) / 8, 0),
                 std::vector<float>(n_groups, 0.0f), std::vector<float>(n_groups, 0.0f)};
  std::vector<double> pos(n_groups, 0.0), neg(n_groups, 0.0);
  std::vector<std::int64_t> n_pos(n_groups, 0), n_neg(n_groups, 0);
  for_each_grouped(view, [&](std::size_t i, std::size_t g) {
    const float v = x.data[i];
    if (v >= 0.0f) {  // threshold 0: x >= 0 -> 1, x < 0 -> 0
      q.bits[i / 8] |= static_cast<std::uint8_t>(1u << (i % 8));
      pos[g] += v;
      ++n_pos[g];
    } else {
      neg[g] += v;
      ++n_neg[g];
    }
  });
  for (std::size_t g = 0; g < n_groups; ++g) {
    q.positive_level[g] = n_pos[g] ? static_cast<float>(pos[g] / static_cast<double>(n_pos[g])) : 0.0f;
    q.negative_level[g] = n_neg[g] ? static_cast<float>(neg[g] / static_cast<double>(n_neg[g])) : 0.0f;
  }
  return q;
}

OneBitTensor quantize_one_bit(const Tensor& x) { return quantize_one_bit(x, one_bit_groups_for(x.shape)); }

void add_dequantized(Tensor& into, const OneBitTensor& q) {
  if (into.shape != q.shape)
    throw Error(fmt::format("1-bit decode: shape {} into a tensor of shape {}", shape_to_string(q.shape),
                            shape_to_string(into.shape)));
  const GroupView view(q.shape, q.groups);
  for_each_grouped(view, [&](std::size_t i, std::size_t g) {
    into.data[i] += bit_of(q, i) ? q.positive_level[g] : q.negative_level[g];
  });
}

Tensor dequantize(const OneBitTensor& q) {
  Tensor t(q.shape);
  add_dequantized(t, q);
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
