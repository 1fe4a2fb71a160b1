#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/gemm.hpp"
#include "sim/kernels/pool.hpp"

namespace coinfer::kernels {
namespace {

struct PoolGeometry {
  std::int64_t c, h, w, oh, ow;
};

PoolGeometry geometry(const Shape& in, const PoolParams& p, const char* name) {
  if (in.size() != 3)
    throw Error(fmt::format("{}: expected a (C,H,W) input, got {}", name, shape_to_string(in)));
  for (int i = 0; i < 2; ++i)
    if (p.kernel[i] < 1 || p.stride[i] < 1 || p.padding[i] < 0)
      throw Error(fmt::format("{}: kernel and stride must be positive, padding non-negative", name));
  PoolGeometry g{in[0], in[1], in[2], 0, 0};
  g.oh = pool_output_size(g.h, p.kernel[0], p.stride[0], p.padding[0], p.ceil_mode);
  g.ow = pool_output_size(g.w, p.kernel[1], p.stride[1], p.padding[1], p.ceil_mode);
  if (g.oh < 1 || g.ow < 1) throw Error(fmt::format("{}: kernel does not fit the input", name));
  return g;
}

// Runs `window(c, o, y0, y1, x0, x1, area)` for every output o = y * OW + x of every channel c, channels
// split over the kernel threads: [y0, y1) x [x0, x1) is the window clipped to the input, `area` its size
// clipped to the padded input (Caffe's average divisor).
template <class Window>
void for_each_window(const PoolGeometry& g, const PoolParams& p, Window window) {
  parallel_for(g.c, 1, [&](std::int64_t c0, std::int64_t c1) {
    for (std::int64_t c = c0; c < c1; ++c) {
      for (std::int64_t y = 0; y < g.oh; ++y) {
        std::int64_t y0 = y * p.stride[0] - p.padding[0];
        std::int64_t y1 = std::min(y0 + p.kernel[0], g.h + p.padding[0]);
        const std::int64_t area_h = y1 - y0;
        y0 = std::max<std::int64_t>(y0, 0);
        y1 = std::min(y1, g.h);
        for (std::int64_t x = 0; x < g.ow; ++x) {
          std::int64_t x0 = x * p.stride[1] - p.padding[1];
          std::int64_t x1 = std::min(x0 + p.kernel[1], g.w + p.padding[1]);
          const std::int64_t area = area_h * (x1 - x0);
          x0 = std::max<std::int64_t>(x0, 0);
          x1 = std::min(x1, g.w);
          window(c, y * g.ow + x, y0, y1, x0, x1, area);
        }
      }
    }
  });
}

// Forward pooling: out[c, o] = reduce(src, W, y0, y1, x0, x1, area) over the window of output o.
template <class Reduce>
Tensor pool(const Tensor& in, const PoolParams& p, const char* name, Reduce reduce) {
  const auto g = geometry(in.shape, p, name);
  Tensor out({g.c, g.oh, g.ow});
  for_each_window(g, p,
                  [&](std::int64_t c, std::int64_t o, std::int64_t y0, std::int64_t y1, std::int64_t x0,
                      std::int64_t x1, std::int64_t area) {
                    out.data[static_cast<std::size_t>(c * g.oh * g.ow + o)] =
                        reduce(in.ptr() + c * g.h * g.w, g.w, y0, y1, x0, x1, area);
                  });
  return out;
}

// Geometry of a pooling backward pass: the forward's, and grad_output must have the output's shape.
PoolGeometry backward_geometry(const Shape& in, const Tensor& grad_output, const PoolParams& p,
                               const char* name) {
  const auto g = geometry(in, p, name);
  if (grad_output.shape != Shape{g.c, g.oh, g.ow})
    throw Error(fmt::format("{}: grad_output {} is not the output shape [{},{},{}]", name,
                            shape_to_string(grad_output.shape), g.c, g.oh, g.ow));
  return g;
}

}  // namespace

std::int64_t pool_output_size(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p,
                              bool ceil_mode) {
  const std::int64_t span = in + 2 * p - k;
  if (span < 0) return 0;
  if (!ceil_mode) return span / s + 1;
  std::int64_t out = (span + s - 1) / s + 1;
  if (p > 0 && (out - 1) * s >= in + p) --out;  // Caffe: the last window must start inside input or left pad
  return out;
}

Tensor max_pool2d(const Tensor& input, const PoolParams& params) {
  return pool(input, params, "max_pool",
              [](const float* src, std::int64_t w, std::int64_t y0, std::int64_t y1, std::int64_t x0,
                 std::int64_t x1, std::int64_t) {
                float m = -std::numeric_limits<float>::infinity();
                for (std::int64_t y = y0; y < y1; ++y)
                  for (std::int64_t x = x0; x < x1; ++x) m = std::max(m, src[y * w + x]);
                return m;
              });
}

Tensor avg_pool2d(const Tensor& input, const PoolParams& params) {
  return pool(input, params, "avg_pool",
              [](const float* src, std::int64_t w, std::int64_t y0, std::int64_t y1, std::int64_t x0,
                 std::int64_t x1, std::int64_t area) {
                float s = 0.0f;
                for (std::int64_t y = y0; y < y1; ++y)
                  for (std::int64_t x = x0; x < x1; ++x) s += src[y * w + x];
                return s / static_cast<float>(area);
              });
}

Tensor max_pool2d_backward(const Tensor& input, const Tensor& grad_output, const PoolParams& params) {
  const auto g = backward_geometry(input.shape, grad_output, params, "max_pool_backward");
  Tensor grad(input.shape);
  // Each window's gradient goes to its first maximum in row-major order (the element max_pool2d's
  // std::max kept); a window wholly in the padding has none and passes nothing back.
  for_each_window(g, params,
                  [&](std::int64_t c, std::int64_t o, std::int64_t y0, std::int64_t y1, std::int64_t x0,
                      std::int64_t x1, std::int64_t) {
                    const float* src = input.ptr() + c * g.h * g.w;
                    std::int64_t best = -1;
                    for (std::int64_t y = y0; y < y1; ++y)
                      for (std::int64_t x = x0; x < x1; ++x)
                        if (best < 0 || src[y * g.w + x] > src[best]) best = y * g.w + x;
                    if (best >= 0)
                      grad.data[static_cast<std::size_t>(c * g.h * g.w + best)] +=
                          grad_output.data[static_cast<std::size_t>(c * g.oh * g.ow + o)];
                  });
  return grad;
}

Tensor avg_pool2d_backward(const Shape& input_shape, const Tensor& grad_output, const PoolParams& params) {
  const auto g = backward_geometry(input_shape, grad_output, params, "avg_pool_backward");
  Tensor grad(input_shape);
  // Every input element of a window receives dY / area (the forward's divisor).
  for_each_window(g, params,
                  [&](std::int64_t c, std::int64_t o, std::int64_t y0, std::int64_t y1, std::int64_t x0,
                      std::int64_t x1, std::int64_t area) {
                    float* dst = grad.ptr() + c * g.h * g.w;
                    const float share = grad_output.data[static_cast<std::size_t>(c * g.oh * g.ow + o)] /
                                        static_cast<float>(area);
                    for (std::int64_t y = y0; y < y1; ++y)
                      for (std::int64_t x = x0; x < x1; ++x) dst[y * g.w + x] += share;
                  });
  return grad;
}

Tensor global_avg_pool_backward(const Shape& input_shape, const Tensor& grad_output) {
  if (input_shape.size() != 3 || grad_output.shape != Shape{input_shape[0], 1, 1})
    throw Error(fmt::format(
        "global_avg_pool_backward: expected a (C,H,W) input and a (C,1,1) grad_output, got {} and {}",
        shape_to_string(input_shape), shape_to_string(grad_output.shape)));
  const std::int64_t c = input_shape[0], plane = input_shape[1] * input_shape[2];
  Tensor grad(input_shape);
  grad.matrix(c, plane).colwise() = grad_output.vector() / static_cast<float>(plane);
  return grad;
}

Tensor global_avg_pool(const Tensor& input) {
  if (input.rank() != 3)
    throw Error(
        fmt::format("global_avg_pool: expected a (C,H,W) input, got {}", shape_to_string(input.shape)));
  const std::int64_t c = input.shape[0], plane = input.shape[1] * input.shape[2];
  Tensor out({c, 1, 1});
  out.vector() = input.matrix(c, plane).rowwise().mean();
  return out;
}

}  // namespace coinfer::kernels
