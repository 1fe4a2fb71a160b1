#pragma once
/// A dense fp32 tensor: a shape and its elements in row-major order ((C, H, W) feature maps,
/// (T, F) sequences, (N) vectors), plus seeded random fills.
///
///     Tensor x = random_normal({3, 32, 32}, 42);        // N(0, 1), reproducible from the seed
///     auto m = x.matrix(3, 32 * 32);                      // Eigen view, no copy
///     float v = x.at(2, 5, 7);
#include <cstdint>
#include <random>
#include <vector>

#include <Eigen/Core>

#include "sim/graph/shape.hpp"

namespace coinfer {

/// Row-major float matrix types used by every kernel; `Map`s view a tensor's storage without copying.
using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixMap = Eigen::Map<RowMatrix>;
using ConstMatrixMap = Eigen::Map<const RowMatrix>;
using VectorMap = Eigen::Map<Eigen::VectorXf>;
using ConstVectorMap = Eigen::Map<const Eigen::VectorXf>;

struct Tensor {
  Shape shape;
  std::vector<float> data;

  Tensor() = default;
  /// A tensor of `shape` filled with `value`; throws `Error` for a negative dimension.
  explicit Tensor(Shape shape, float value = 0.0f);
  /// A tensor of `shape` holding `values`; throws `Error` when the sizes differ.
  Tensor(Shape shape, std::vector<float> values);

  std::int64_t size() const { return static_cast<std::int64_t>(data.size()); }
  std::int64_t size_bytes() const { return size() * static_cast<std::int64_t>(sizeof(float)); }
  std::int64_t rank() const { return static_cast<std::int64_t>(shape.size()); }
  std::int64_t dim(std::size_t i) const { return shape.at(i); }
  bool empty() const { return data.empty(); }

  float* ptr() { return data.data(); }
  const float* ptr() const { return data.data(); }

  /// Element (c, h, w) of a rank-3 tensor (no bounds check).
  float& at(std::int64_t c, std::int64_t h, std::int64_t w) {
    return data[(c * shape[1] + h) * shape[2] + w];
  }
  float at(std::int64_t c, std::int64_t h, std::int64_t w) const {
    return data[(c * shape[1] + h) * shape[2] + w];
  }

  /// The storage viewed as a rows x cols row-major matrix; throws `Error` if rows * cols != size().
  MatrixMap matrix(std::int64_t rows, std::int64_t cols);
  ConstMatrixMap matrix(std::int64_t rows, std::int64_t cols) const;
  VectorMap vector() { return {data.data(), size()}; }
  ConstVectorMap vector() const { return {data.data(), size()}; }

  /// The same elements under another shape of equal element count; throws `Error` otherwise.
  Tensor reshaped(Shape new_shape) const&;
  Tensor reshaped(Shape new_shape) &&;

  bool operator==(const Tensor&) const = default;
};

/// What the backward pass of a layer with parameters returns: the loss's gradient with respect to the
/// layer's input, weight and bias, each with the shape of what it differentiates (`bias` empty when
/// the layer has none).
struct Gradients {
  Tensor input, weight, bias;
};

/// Reproducible random numbers: the same seed gives the same values on every platform
/// (unlike std::normal_distribution, whose algorithm is implementation-defined).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, 1) with 24 random bits.
  float uniform() { return static_cast<float>(engine_() >> 40) * 0x1.0p-24f; }
  /// Uniform in [lo, hi).
  float uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }
  /// Standard normal N(0, 1) (Box-Muller, both values of a pair used).
  float normal();
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
  float spare_ = 0.0f;
  bool has_spare_ = false;
};

/// A tensor of i.i.d. N(mean, stddev^2) values drawn from `seed`.
Tensor random_normal(const Shape& shape, std::uint64_t seed, float mean = 0.0f, float stddev = 1.0f);
/// A tensor of i.i.d. uniform values in [lo, hi) drawn from `seed`.
Tensor random_uniform(const Shape& shape, std::uint64_t seed, float lo = -1.0f, float hi = 1.0f);

/// A seed derived from a base seed and a label (layer name, purpose): splitmix64 of the base
/// mixed with the FNV-1a hash of the label. `derive_seed(7, "conv1") != derive_seed(7, "conv2")`.
std::uint64_t derive_seed(std::uint64_t seed, std::string_view label);

/// Order-independent summary of a tensor for checksums: sum of elements (double accumulation).
double tensor_sum(const Tensor& t);
/// Largest absolute element-wise difference; throws `Error` when the shapes differ.
float max_abs_diff(const Tensor& a, const Tensor& b);

}  // namespace coinfer
