#pragma once
// The real 8x8 digits (python3-sklearn's copy), loaded once for the functional training tests.
#include <filesystem>

#include <catch2/catch.hpp>

#include "sim/functional/dataset.hpp"

namespace coinfer::test {

inline const Dataset& digits() {
  static const Dataset data = [] {
    const std::string path = default_digits_path();
    INFO("the digits dataset is missing: install python3-sklearn (scripts/install-deps.sh)");
    REQUIRE(std::filesystem::exists(path));
    return load_digits(path);
  }();
  return data;
}

}  // namespace coinfer::test
