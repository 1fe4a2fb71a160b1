#pragma once
/// Option checks shared by the subcommands; their messages read like every other input error
/// (`coinfer: error: --jobs: expected an integer >= 1, got '0'`, exit 2).
#include <charconv>
#include <cmath>
#include <string>

#include <CLI/CLI.hpp>

namespace coinfer::cli {

/// An integer >= 1 (at most 1 << 20, more than any machine runs at once).
inline CLI::Validator at_least_one() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        long long v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || v < 1 || v > (1 << 20))
          return "expected an integer >= 1 (at most 1048576), got '" + text + "'";
        return "";
      },
      "INT>=1");
}

/// An integer in [0, 2^64 - 1] (a seed): "-1" is refused rather than wrapped to 2^64 - 1.
inline CLI::Validator unsigned_integer() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        unsigned long long v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size())
          return "expected an integer >= 0 (at most 18446744073709551615), got '" + text + "'";
        return "";
      },
      "UINT");
}

/// A finite number >= 0 (CLI::NonNegativeNumber prints its upper bound, DBL_MAX, in full).
inline CLI::Validator non_negative() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0.0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || !(v >= 0.0) || !std::isfinite(v))
          return "expected a number >= 0, got '" + text + "'";
        return "";
      },
      "NUMBER>=0");
}

}  // namespace coinfer::cli
