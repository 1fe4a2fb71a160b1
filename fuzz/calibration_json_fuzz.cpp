/// Calibration JSON (sim/calibration/calibration_json): an accepted calibration must write and
/// re-read to the same JSON (calibration_json.hpp: `calibration_from_json(calibration_to_json(c))`
/// equals `c`), and `coinfer calibrate --write`'s text must be writable.
#include "fuzz/fuzz_support.hpp"
#include "sim/calibration/calibration_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  fuzz::accept_or_reject([&] {
    const auto calibration = calibration_from_json(parse_json_text(fuzz::as_text(data, size), "fuzz-device.json"));
    const Json written = calibration_to_json(calibration);
    DeviceCalibration again;
    try {
      again = calibration_from_json(written);
    } catch (const Error& e) {
      std::fprintf(stderr, "fuzz: written calibration does not re-read: %s\n", e.what());
      fuzz::check(false, "calibration_from_json(calibration_to_json(c)) throws");
    }
    fuzz::check(calibration_to_json(again) == written, "calibration round trip differs");
    (void)calibration_file_text(calibration);
  });
  return 0;
}
