/// Per-layer device profiles (sim/calibration/profile_import: `coinfer calibrate --from-profile`).
/// The first byte picks the format (csv, torch-trace, tflite-csv); the rest is the file. An
/// accepted profile has a row, every row a name and a finite time > 0, every node kept out of the
/// rows a time of 0, and the SHA-256 of the bytes read.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "sim/calibration/profile_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  if (size == 0) return 0;
  const auto format = static_cast<ProfileFormat>(data[0] % profile_format_names().size());
  const std::string text = fuzz::as_text(data + 1, size - 1);
  fuzz::accept_or_reject([&] {
    const Profile p = parse_profile(text, "fuzz.profile", format);
    fuzz::check(!p.rows.empty(), "an accepted profile has a row");
    fuzz::check(p.sha256.size() == 64, "a SHA-256 in hex");
    for (const auto& r : p.rows) {
      fuzz::check(!r.name.empty(), "rows are named");
      fuzz::check(std::isfinite(r.ms) && r.ms > 0.0, "row times are finite and > 0");
      fuzz::check(r.line >= 1, "rows name their line");
    }
    for (const auto& r : p.below_resolution) fuzz::check(r.ms == 0.0, "nodes kept out are at 0 ms");
  });
  return 0;
}
