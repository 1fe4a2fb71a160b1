#include "sim/kernels/tensor.hpp"

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/hash.hpp"

namespace coinfer {
namespace {

std::size_t checked_elements(const Shape& shape) {
  for (auto d : shape)
    if (d < 0) throw Error(fmt::format("tensor shape {} has a negative dimension", shape_to_string(shape)));
  return static_cast<std::size_t>(shape_elements(shape));
}

}  // namespace

Tensor::Tensor(Shape s, float value) : shape(std::move(s)), data(checked_elements(shape), value) {}

Tensor::Tensor(Shape s, std::vector<float> values) : shape(std::move(s)), data(std::move(values)) {
  if (checked_elements(shape) != data.size())
    throw Error(fmt::format("tensor shape {} needs {} values, got {}", shape_to_string(shape),
                            shape_elements(shape), data.size()));
}

MatrixMap Tensor::matrix(std::int64_t rows, std::int64_t cols) {
  if (rows * cols != size())
    throw Error(fmt::format("cannot view {} elements as a {}x{} matrix", size(), rows, cols));
  return {data.data(), rows, cols};
}

ConstMatrixMap Tensor::matrix(std::int64_t rows, std::int64_t cols) const {
  if (rows * cols != size())
    throw Error(fmt::format("cannot view {} elements as a {}x{} matrix", size(), rows, cols));
  return {data.data(), rows, cols};
}

Tensor Tensor::reshaped(Shape new_shape) const& { return Tensor(*this).reshaped(std::move(new_shape)); }

Tensor Tensor::reshaped(Shape new_shape) && {
  if (checked_elements(new_shape) != data.size())
    throw Error(fmt::format("cannot reshape {} to {}", shape_to_string(shape), shape_to_string(new_shape)));
  shape = std::move(new_shape);
  return std::move(*this);
}

float Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // Box-Muller: for u1 in (0, 1], u2 in [0, 1): r = sqrt(-2 ln u1), the pair (r cos 2 pi u2, r sin 2 pi u2)
  // is two independent N(0, 1) draws.
  const double u1 = 1.0 - static_cast<double>(engine_() >> 11) * 0x1.0p-53;
  const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double angle = 2.0 * std::numbers::pi * u2;
  spare_ = static_cast<float>(r * std::sin(angle));
  has_spare_ = true;
  return static_cast<float>(r * std::cos(angle));
}

Tensor random_normal(const Shape& shape, std::uint64_t seed, float mean, float stddev) {
  Tensor t(shape);
  Rng rng(seed);
  for (auto& v : t.data) v = mean + stddev * rng.normal();
  return t;
}

Tensor random_uniform(const Shape& shape, std::uint64_t seed, float lo, float hi) {
  Tensor t(shape);
  Rng rng(seed);
  for (auto& v : t.data) v = rng.uniform(lo, hi);
  return t;
}

std::uint64_t derive_seed(std::uint64_t seed, std::string_view label) {
  // FNV-1a from a basis one digit short of the standard one (kept: every seeded weight and input
  // derives from it), then SplitMix64 of seed + hash: consecutive seeds give unrelated streams.
  return splitmix64(seed + fnv1a64(label, 1469598103934665603ull));
}

double tensor_sum(const Tensor& t) {
  double s = 0.0;
  for (float v : t.data) s += v;
  return s;
}

float max_abs_diff(const Tensor& a, const Tensor& b) {
  if (a.shape != b.shape)
    throw Error(fmt::format("shapes differ: {} vs {}", shape_to_string(a.shape), shape_to_string(b.shape)));
  float m = 0.0f;
  for (std::size_t i = 0; i < a.data.size(); ++i) m = std::max(m, std::abs(a.data[i] - b.data[i]));
  return m;
}

}  // namespace coinfer
