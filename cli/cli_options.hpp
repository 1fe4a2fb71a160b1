#pragma once
/// Option checks shared by the subcommands; their messages read like every other input error
/// (`coinfer: error: --jobs: expected an integer >= 1, got '0'`, exit 2).
#include <fmt/format.h>
#include <charconv>
#include <cmath>

#include <initializer_list>
#include <string>
#include <vector>

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

/// An integer in [lo, hi] (`expected an integer in [1, 4096], got '0'`).
inline CLI::Validator integer_in(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        long long v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
          return fmt::format("expected an integer in [{}, {}], got '{}'", lo, hi, text);
        return "";
      },
      fmt::format("INT in [{}, {}]", lo, hi));
}

/// A number in [lo, hi] (`expected a number in [0, 100], got '-1'`).
inline CLI::Validator number_in(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        double v = 0.0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || !(v >= lo && v <= hi))
          return fmt::format("expected a number in [{}, {}], got '{}'", lo, hi, text);
        return "";
      },
      fmt::format("NUMBER in [{}, {}]", lo, hi));
}

/// One of a few words (`expected one of quick, full; got 'fast'`).
inline CLI::Validator one_of(std::initializer_list<const char*> words) {
  std::vector<std::string> list(words.begin(), words.end());
  const auto joined = fmt::format("{}", fmt::join(list, ", "));
  return CLI::Validator(
      [list, joined](std::string& text) -> std::string {
        for (const auto& w : list)
          if (text == w) return "";
        return fmt::format("expected one of {}; got '{}'", joined, text);
      },
      "{" + fmt::format("{}", fmt::join(list, "|")) + "}");
}

}  // namespace coinfer::cli
