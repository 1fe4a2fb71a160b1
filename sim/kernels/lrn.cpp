#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/normalization.hpp"

namespace coinfer::kernels {

Tensor lrn(const Tensor& x, std::int64_t size, float alpha, float beta, float k) {
  if (x.rank() != 3)
    throw Error(fmt::format("lrn: expected a (C,H,W) input, got {}", shape_to_string(x.shape)));
  if (size < 1) throw Error(fmt::format("lrn: size must be positive, got {}", size));
  const std::int64_t c = x.shape[0], plane = x.shape[1] * x.shape[2];
  const std::int64_t before = (size - 1) / 2, after = size / 2;
  auto in = x.matrix(c, plane);
  const Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> sq = in.array().square();
  // Running window sum of squares over channels [ch - before, ch + after].
  Eigen::ArrayXf window = Eigen::ArrayXf::Zero(plane);
  for (std::int64_t ch = 0; ch < std::min(after, c); ++ch) window += sq.row(ch).transpose();
  Tensor out(x.shape);
  auto y = out.matrix(c, plane);
  const float a = alpha / static_cast<float>(size);
  for (std::int64_t ch = 0; ch < c; ++ch) {
    if (ch + after < c) window += sq.row(ch + after).transpose();
    if (ch - before - 1 >= 0) window -= sq.row(ch - before - 1).transpose();
    y.row(ch) = (in.row(ch).array().transpose() * (k + a * window).pow(-beta)).transpose().matrix();
  }
  return out;
}

}  // namespace coinfer::kernels
