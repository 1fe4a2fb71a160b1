#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/dense.hpp"
#include "sim/kernels/gemm.hpp"

namespace coinfer::kernels {

Tensor fully_connected(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (weight.rank() != 2 || weight.shape[1] != input.size())
    throw Error(fmt::format("fc: weight {} does not match an input of {} elements",
                            shape_to_string(weight.shape), input.size()));
  const std::int64_t units = weight.shape[0];
  if (!bias.empty() && bias.size() != units) throw Error("fc: bias must have one value per unit");
  Tensor out({units});
  if (!bias.empty()) out.data = bias.data;
  gemv(weight.ptr(), input.ptr(), out.ptr(), units, input.size(), !bias.empty());
  return out;
}

}  // namespace coinfer::kernels
