#pragma once
// Shared by the BODP and 2-D grid tests: a conv layer's geometry in one call.
#include <cstdint>

#include "partitioners/modnn/bodp.hpp"

namespace coinfer::modnn::testing {

/// Height h, width w, c input channels, k x k kernel, stride s, padding p, 8 filters, z bytes per value.
inline ConvGeometry conv(std::int64_t h, std::int64_t w, std::int64_t c, std::int64_t k, std::int64_t s,
                         std::int64_t p, std::int64_t z = 4) {
  return {.height = h,
          .width = w,
          .channels = c,
          .kernel = k,
          .stride = s,
          .padding = p,
          .filters = 8,
          .bytes_per_value = z};
}

}  // namespace coinfer::modnn::testing
