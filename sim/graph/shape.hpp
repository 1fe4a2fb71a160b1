#pragma once
/// Tensor shapes: (C, H, W) for feature maps, (T, F) for sequences, (N) for vectors.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coinfer {

using Shape = std::vector<std::int64_t>;

/// Product of the dimensions (1 for a rank-0 shape). Throws `InputError` when the product does
/// not fit in int64 (shapes of an inferred graph always fit: see `kMaxTensorBytes`).
std::int64_t shape_elements(const Shape& shape);
/// The same, nullopt on overflow.
std::optional<std::int64_t> checked_shape_elements(const Shape& shape);
/// `[3,224,224]`.
std::string shape_to_string(const Shape& shape);

}  // namespace coinfer
