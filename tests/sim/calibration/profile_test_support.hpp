#pragma once
// Shared by the profile reader tests: the fixtures folder and the error a bad profile raises.
#include <string>

#include <catch2/catch.hpp>

#include "sim/calibration/profile_import.hpp"
#include "sim/core/error.hpp"

namespace coinfer::test {

inline const std::string kProfileFixtures = COINFER_SOURCE_DIR "/tests/fixtures/profiles/";

/// The InputError parsing `text` as `file` raises; fails the running test when there is none.
inline InputError profile_error(const std::string& text, ProfileFormat format,
                                const std::string& file = "p.txt") {
  try {
    parse_profile(text, file, format);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError for:\n" << text);
  throw;  // not reached: FAIL throws
}

}  // namespace coinfer::test
