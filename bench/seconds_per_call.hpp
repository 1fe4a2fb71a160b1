#pragma once
// Host time of one call of a kernel, for the benchmarks that print ratios of kernel times.
#include <algorithm>
#include <chrono>
#include <functional>

namespace coinfer::bench {

/// Seconds per call of `fn`: the fastest of `repeats` rounds, a round calling fn until 20 ms have
/// passed (after one warm-up call).
inline double seconds_per_call(const std::function<void()>& fn, int repeats) {
  using clock = std::chrono::steady_clock;
  fn();  // warm-up
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    int calls = 0;
    const auto start = clock::now();
    double elapsed = 0.0;
    do {
      fn();
      ++calls;
      elapsed = std::chrono::duration<double>(clock::now() - start).count();
    } while (elapsed < 0.02);
    best = std::min(best, elapsed / calls);
  }
  return best;
}

}  // namespace coinfer::bench
