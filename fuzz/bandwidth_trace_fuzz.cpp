/// Bandwidth traces in every public format (sim/platform/trace_formats: `bandwidth: {trace, format}`,
/// `coinfer trace-info`). The first byte picks the format (and, for Mahimahi, the bin width); the
/// rest is the file. An accepted trace is a non-empty schedule starting at t = 0 (coinfer's own
/// format: at t >= 0, the link's nominal rate holding before), times increasing, every rate in [1, 1e12]
/// bit/s, a period >= 0 beyond the last point's time when set.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "sim/platform/trace_formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  if (size == 0) return 0;
  const auto formats = static_cast<int>(trace_format_names().size());
  const auto format = static_cast<TraceFormat>(data[0] % formats);
  const TraceReadOptions options{1 + data[0] / formats};  // Mahimahi bins of 1 to 37 ms
  const std::string text = fuzz::as_text(data + 1, size - 1);
  fuzz::accept_or_reject([&] {
    const TraceSchedule s = parse_trace(format, text, "fuzz.trace", options);
    fuzz::check(!s.points.empty(), "an accepted trace has a point");
    fuzz::check(s.points.front().first == 0.0 || format == TraceFormat::Coinfer,
                "the schedule starts at t = 0");
    for (std::size_t i = 0; i < s.points.size(); ++i) {
      const auto [t, rate] = s.points[i];
      fuzz::check(std::isfinite(t) && t >= 0.0, "times are finite and >= 0");
      fuzz::check(i == 0 || t > s.points[i - 1].first, "times increase");
      fuzz::check(rate >= 1.0 && rate <= 1e12, "rates in [1, 1e12] bit/s");
    }
    fuzz::check(std::isfinite(s.period_s) && s.period_s >= 0.0, "the period is finite and >= 0");
    fuzz::check(s.period_s == 0.0 || s.period_s > s.points.back().first,
                "a period ends after the last point");
  });
  return 0;
}
