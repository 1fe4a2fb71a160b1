#pragma once
// The convolution's definition as plain loops, shared by the forward and backward reference kernels:
//   out[o, y, x] = b[o] + sum_{c in group(o), i, j} w[o, c - c0, i, j] * in[c, y*s - p + i*d, x*s - p + j*d]
#include "sim/kernels/conv.hpp"

namespace coinfer::test {

/// Calls visit(out_index, in_index, w_index) for every product of the sum above whose input element
/// lies inside the input (indices into the row-major data of out [OC, OH, OW], in and w).
template <class Visit>
void for_each_conv_product(const Shape& in, const Shape& w, const kernels::ConvParams& p, Visit visit) {
  const std::int64_t h = in[1], wd = in[2], oc = w[0], icg = w[1], kh = w[2], kw = w[3], ocg = oc / p.groups;
  const std::int64_t oh = (h + 2 * p.padding[0] - p.dilation[0] * (kh - 1) - 1) / p.stride[0] + 1;
  const std::int64_t ow = (wd + 2 * p.padding[1] - p.dilation[1] * (kw - 1) - 1) / p.stride[1] + 1;
  for (std::int64_t o = 0; o < oc; ++o)
    for (std::int64_t y = 0; y < oh; ++y)
      for (std::int64_t x = 0; x < ow; ++x)
        for (std::int64_t ci = 0; ci < icg; ++ci)
          for (std::int64_t i = 0; i < kh; ++i)
            for (std::int64_t j = 0; j < kw; ++j) {
              const std::int64_t iy = y * p.stride[0] - p.padding[0] + i * p.dilation[0];
              const std::int64_t ix = x * p.stride[1] - p.padding[1] + j * p.dilation[1];
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              const std::int64_t c = (o / ocg) * icg + ci;
              visit(static_cast<std::size_t>((o * oh + y) * ow + x),
                    static_cast<std::size_t>((c * h + iy) * wd + ix),
                    static_cast<std::size_t>(((o * icg + ci) * kh + i) * kw + j));
            }
}

/// Doubles to a float tensor of `shape`.
inline Tensor to_tensor(const Shape& shape, const std::vector<double>& values) {
  Tensor t(shape);
  for (std::size_t k = 0; k < values.size(); ++k) t.data[k] = static_cast<float>(values[k]);
  return t;
}

/// The definition above, accumulated in double.
inline Tensor naive_conv(const Tensor& in, const Tensor& w, const Tensor& b, const kernels::ConvParams& p) {
  const std::int64_t oc = w.shape[0];
  const std::int64_t oh =
      (in.shape[1] + 2 * p.padding[0] - p.dilation[0] * (w.shape[2] - 1) - 1) / p.stride[0] + 1;
  const std::int64_t ow =
      (in.shape[2] + 2 * p.padding[1] - p.dilation[1] * (w.shape[3] - 1) - 1) / p.stride[1] + 1;
  std::vector<double> acc(static_cast<std::size_t>(oc * oh * ow), 0.0);
  for (std::size_t k = 0; k < acc.size(); ++k)
    acc[k] = b.empty() ? 0.0 : b.data[k / static_cast<std::size_t>(oh * ow)];
  for_each_conv_product(in.shape, w.shape, p, [&](std::size_t out, std::size_t x, std::size_t wi) {
    acc[out] += static_cast<double>(w.data[wi]) * in.data[x];
  });
  return to_tensor({oc, oh, ow}, acc);
}

}  // namespace coinfer::test
