#include "sim/kernels/resize.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::kernels {
namespace {

void check_resize(const Tensor& x, std::int64_t out_h, std::int64_t out_w, const char* what) {
  if (x.rank() != 3 || x.shape[1] < 1 || x.shape[2] < 1)
    throw Error(fmt::format("{}: expected a (C,H,W) input, got {}", what, shape_to_string(x.shape)));
  if (out_h < 1 || out_w < 1) throw Error(fmt::format("{}: output size must be positive", what));
}

// One output pixel's bilinear taps along an axis: source index i0, its neighbour i1 and i1's weight.
struct Tap {
  std::int64_t i0, i1;
  double w1;
};

std::vector<Tap> bilinear_taps(std::int64_t in, std::int64_t out) {
  std::vector<Tap> taps(static_cast<std::size_t>(out));
  for (std::int64_t o = 0; o < out; ++o) {
    const double src = std::clamp((static_cast<double>(o) + 0.5) * static_cast<double>(in) / out - 0.5, 0.0,
                                  static_cast<double>(in - 1));
    const auto i0 = static_cast<std::int64_t>(src);
    taps[static_cast<std::size_t>(o)] = {i0, std::min(i0 + 1, in - 1), src - static_cast<double>(i0)};
  }
  return taps;
}

// Area taps along an axis: for output pixel o, every input pixel i overlapping its footprint
// [o * in / out, (o + 1) * in / out) with weight (overlap length) / (footprint length).
std::vector<std::vector<std::pair<std::int64_t, double>>> area_taps(std::int64_t in, std::int64_t out) {
  std::vector<std::vector<std::pair<std::int64_t, double>>> taps(static_cast<std::size_t>(out));
  const double step = static_cast<double>(in) / static_cast<double>(out);
  for (std::int64_t o = 0; o < out; ++o) {
    const double lo = o * step, hi = (o + 1) * step;
    for (auto i = static_cast<std::int64_t>(lo); i < in && i < hi; ++i) {
      const double covered = std::min(hi, i + 1.0) - std::max(lo, static_cast<double>(i));
      if (covered > 0) taps[static_cast<std::size_t>(o)].emplace_back(i, covered / step);
    }
  }
  return taps;
}

}  // namespace

Tensor resize_bilinear(const Tensor& x, std::int64_t out_h, std::int64_t out_w) {
  check_resize(x, out_h, out_w, "resize_bilinear");
  const std::int64_t c = x.shape[0];
  const auto rows = bilinear_taps(x.shape[1], out_h), cols = bilinear_taps(x.shape[2], out_w);
  Tensor y({c, out_h, out_w});
  for (std::int64_t ch = 0; ch < c; ++ch)
    for (std::int64_t oy = 0; oy < out_h; ++oy) {
      const Tap& r = rows[static_cast<std::size_t>(oy)];
      for (std::int64_t ox = 0; ox < out_w; ++ox) {
        const Tap& q = cols[static_cast<std::size_t>(ox)];
        const double top = (1 - q.w1) * x.at(ch, r.i0, q.i0) + q.w1 * x.at(ch, r.i0, q.i1);
        const double bottom = (1 - q.w1) * x.at(ch, r.i1, q.i0) + q.w1 * x.at(ch, r.i1, q.i1);
        y.at(ch, oy, ox) = static_cast<float>((1 - r.w1) * top + r.w1 * bottom);
      }
    }
  return y;
}

Tensor resize_area(const Tensor& x, std::int64_t out_h, std::int64_t out_w) {
  check_resize(x, out_h, out_w, "resize_area");
  const std::int64_t c = x.shape[0], w = x.shape[2];
  const auto rows = area_taps(x.shape[1], out_h), cols = area_taps(w, out_w);
  Tensor y({c, out_h, out_w});
  std::vector<double> row(static_cast<std::size_t>(w));  // one output row, before the columns
  for (std::int64_t ch = 0; ch < c; ++ch)
    for (std::int64_t oy = 0; oy < out_h; ++oy) {
      std::fill(row.begin(), row.end(), 0.0);
      for (const auto& [iy, a] : rows[static_cast<std::size_t>(oy)])
        for (std::int64_t ix = 0; ix < w; ++ix) row[static_cast<std::size_t>(ix)] += a * x.at(ch, iy, ix);
      for (std::int64_t ox = 0; ox < out_w; ++ox) {
        double sum = 0;
        for (const auto& [ix, b] : cols[static_cast<std::size_t>(ox)])
          sum += b * row[static_cast<std::size_t>(ix)];
        y.at(ch, oy, ox) = static_cast<float>(sum);
      }
    }
  return y;
}

}  // namespace coinfer::kernels
