#pragma once
/// Input checks shared by the pipeline solver cores (private to schedulers/pipeline/).
#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/json_access.hpp"

namespace coinfer {

/// Finite number > 0 at `obj[key]`; throws `InputError` naming `path.key`.
inline double pipeline_positive_number(const Json& obj, const char* key, const std::string& path = "") {
  const double x = json_number(obj, key, path, 0.0);
  if (!(x > 0.0)) throw InputError("", join_path(path, key), fmt::format("expected a number > 0, got {}", x));
  return x;
}

}  // namespace coinfer
