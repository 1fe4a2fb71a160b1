#pragma once
/// Nearest-rank percentiles without sorting or copying many values: the p-th percentile of n values
/// is the ceil(p/100 * n)-th smallest (rank clamped to [1, n]). Up to 4096 values are copied and
/// sorted; more are found by radix selection over the values' bit patterns (four passes of 16 bits
/// over the values, a 512 KiB histogram per percentile), so a run of 1e7 frames needs no vector of
/// its latencies, and a run of one frame no histogram. The value is the one a sort would give, bit
/// for bit.
///
///     percentile_nearest_rank({5, 1, 4, 2, 3}, 50) == 3;          // rank ceil(2.5) = 3
///     auto [p50, p95] = kth_smallest([&](auto&& visit) { for (double x : latencies) visit(x); },
///                                    std::array{nearest_rank(n, 50), nearest_rank(n, 95)});
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace coinfer {

/// The 1-based rank of the p-th percentile (p in (0, 100]) of n values: ceil(p/100 * n) in [1, n].
inline std::size_t nearest_rank(std::size_t n, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(n)));
  return std::clamp<std::size_t>(rank, 1, std::max<std::size_t>(n, 1));
}

namespace detail {

// An unsigned key ordered as the doubles are (NaN excluded): flip every bit of a negative, the
// sign bit of a positive.
inline std::uint64_t order_key(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t{1} << 63);
}

inline double from_order_key(std::uint64_t key) {
  const std::uint64_t bits = (key >> 63) != 0 ? key & ~(std::uint64_t{1} << 63) : ~key;
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

}  // namespace detail

/// The `ranks[i]`-th smallest (1-based, each at most the count) of the values `for_each` yields,
/// for every i, found together: `for_each(visit)` must call `visit(double)` once per value, the same
/// values on each of its calls (one, or five from 4097 values on; in any order). NaN values are not
/// allowed. `few` is scratch space for the copy, kept by callers that select in many small sets
/// (each user's frames) so that they allocate it once.
template <class ForEach, std::size_t N>
std::array<double, N> kth_smallest(ForEach&& for_each, std::array<std::size_t, N> ranks,
                                   std::vector<std::uint64_t>& few) {
  constexpr std::size_t kFew = 4096;
  few.clear();
  std::size_t n = 0;
  for_each([&](double x) {
    if (++n <= kFew) few.push_back(detail::order_key(x));
  });
  std::array<double, N> values{};
  if (n <= kFew) {
    std::sort(few.begin(), few.end());
    for (std::size_t i = 0; i < N; ++i) values[i] = detail::from_order_key(few[ranks[i] - 1]);
    return values;
  }
  constexpr int kDigitBits = 16;
  constexpr std::size_t kDigits = std::size_t{1} << kDigitBits;
  std::vector<std::size_t> counts(N * kDigits);
  std::array<std::uint64_t, N> prefix{};  // per rank: the key's digits found so far (higher bits)
  for (int shift = 64 - kDigitBits; shift >= 0; shift -= kDigitBits) {
    std::fill(counts.begin(), counts.end(), 0);
    const std::uint64_t high = shift + kDigitBits >= 64 ? 0 : ~std::uint64_t{0} << (shift + kDigitBits);
    for_each([&](double x) {
      const auto key = detail::order_key(x);
      const auto digit = (key >> shift) & (kDigits - 1);
      for (std::size_t i = 0; i < N; ++i)
        if ((key & high) == prefix[i]) ++counts[i * kDigits + digit];
    });
    // The digit holding each rank: skip the counts of smaller digits.
    for (std::size_t i = 0; i < N; ++i) {
      const std::size_t* c = &counts[i * kDigits];
      std::size_t digit = 0;
      while (digit + 1 < kDigits && ranks[i] > c[digit]) ranks[i] -= c[digit++];
      prefix[i] |= static_cast<std::uint64_t>(digit) << shift;
    }
  }
  for (std::size_t i = 0; i < N; ++i) values[i] = detail::from_order_key(prefix[i]);
  return values;
}

/// The same with scratch space of its own.
template <class ForEach, std::size_t N>
std::array<double, N> kth_smallest(ForEach&& for_each, std::array<std::size_t, N> ranks) {
  std::vector<std::uint64_t> few;
  return kth_smallest(for_each, ranks, few);
}

/// One rank: `kth_smallest(for_each, 3)` is the third smallest.
template <class ForEach>
double kth_smallest(ForEach&& for_each, std::size_t rank) {
  return kth_smallest(for_each, std::array<std::size_t, 1>{rank})[0];
}

/// Nearest-rank percentile of `values` (need not be sorted); `p` in (0, 100]. NaN when empty.
inline double percentile_nearest_rank(const std::vector<double>& values, double p) {
  if (values.empty()) return std::nan("");
  return kth_smallest(
      [&](auto&& visit) {
        for (double x : values) visit(x);
      },
      nearest_rank(values.size(), p));
}

}  // namespace coinfer
