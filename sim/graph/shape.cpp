#include "sim/graph/shape.hpp"

#include <fmt/format.h>

namespace coinfer {

std::int64_t shape_elements(const Shape& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::string shape_to_string(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ",")); }

}  // namespace coinfer
