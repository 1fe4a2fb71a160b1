#pragma once
/// What every libFuzzer target in fuzz/ shares: the invariant it checks and the folders it
/// resolves relative paths against.
///
/// The invariant: any byte string is either accepted or rejected with one `coinfer::Error` (an
/// `InputError` naming the file and key path). Any other exception escapes
/// `LLVMFuzzerTestOneInput`, `std::terminate` aborts, and libFuzzer reports the input as a crash;
/// so do sanitizer reports, failed assertions, `check(...)` below, hangs (-timeout) and huge
/// allocations (-rss_limit_mb / -malloc_limit_mb).
///
///     extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
///       coinfer::fuzz::accept_or_reject([&] { coinfer::graph_from_json(...); });
///       return 0;
///     }
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/core/error.hpp"

namespace coinfer::fuzz {

/// The input as text (JSON and YAML parsers take std::string).
inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// Runs `body`; a `coinfer::Error` is the one accepted way to refuse the input. With
/// COINFER_FUZZ_VERBOSE=1 in the environment each refusal is printed (to see why a seed fails).
template <class Fn>
void accept_or_reject(Fn&& body) {
  static const bool verbose = std::getenv("COINFER_FUZZ_VERBOSE") != nullptr;
  try {
    body();
  } catch (const coinfer::Error& e) {
    if (verbose) std::fprintf(stderr, "fuzz: refused: %s\n", e.what());
    if (std::string(e.what()).empty()) {
      std::fprintf(stderr, "fuzz: a coinfer::Error with an empty message\n");
      std::abort();
    }
  }
}

/// A property of an accepted input (round trips, ...); aborts, so libFuzzer keeps the input.
inline void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz: invariant failed: %s\n", what);
    std::abort();
  }
}

/// The repository root (scenarios/, platforms/ and their shipped files).
inline std::string source_dir() { return COINFER_SOURCE_DIR; }

}  // namespace coinfer::fuzz
