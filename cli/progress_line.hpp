#pragma once
// A progress line on stderr for a long step, at most once a second (the first a second after the
// start, so a short step prints nothing), and the final count once any line was printed: no long
// step is silent.
//
//     ProgressLine line("sweep: checking point {} of {}");
//     for (std::size_t i = 1; i <= n; ++i) line.update(i, n);
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace coinfer::cli {

class ProgressLine {
 public:
  /// `pattern`: a fmt pattern taking the count done and the total.
  explicit ProgressLine(std::string pattern)
      : pattern_(std::move(pattern)), last_(std::chrono::steady_clock::now()) {}

  void update(std::size_t done, std::size_t total) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::seconds(1) && !(printed_ && done == total)) return;
    last_ = now;
    printed_ = true;
    std::fprintf(stderr, "%s\n", fmt::format(fmt::runtime(pattern_), done, total).c_str());
  }

 private:
  std::string pattern_;
  std::chrono::steady_clock::time_point last_;  // of the last line, or the start
  bool printed_ = false;
};

}  // namespace coinfer::cli
