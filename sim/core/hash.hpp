#pragma once
/// Stable, platform-independent hashes: cache keys, sweep point hashes, seeds derived from names.
///
///     fnv1a64("fc6")                  // FNV-1a of the bytes
///     splitmix64(seed ^ fnv1a64(name)) // an independent 64-bit seed per name
#include <cstdint>
#include <string_view>

namespace coinfer {

/// FNV-1a's 64-bit offset basis.
inline constexpr std::uint64_t kFnv1aOffsetBasis = 14695981039346656037ull;

/// FNV-1a over `text`'s bytes, continuing from `h` (chain calls to hash several pieces).
constexpr std::uint64_t fnv1a64(std::string_view text, std::uint64_t h = kFnv1aOffsetBasis) {
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;  // the 64-bit FNV prime
  }
  return h;
}

/// SplitMix64 (Steele, Lea and Flood): x plus the golden-ratio increment, then its finaliser, so
/// consecutive inputs give unrelated outputs.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace coinfer
