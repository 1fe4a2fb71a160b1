#include "sim/graph/shape.hpp"

#include <fmt/format.h>

#include "sim/core/checked_math.hpp"
#include "sim/core/error.hpp"

namespace coinfer {

std::optional<std::int64_t> checked_shape_elements(const Shape& shape) {
  CheckedInt n = 1;
  for (auto d : shape) n *= d;
  if (!n.ok()) return std::nullopt;
  return n.value();
}

std::int64_t shape_elements(const Shape& shape) {
  if (auto n = checked_shape_elements(shape)) return *n;
  throw InputError("", "",
                   fmt::format("shape {} is out of range (its element count does not fit in 64 bits)",
                               shape_to_string(shape)));
}

std::string shape_to_string(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ",")); }

}  // namespace coinfer
