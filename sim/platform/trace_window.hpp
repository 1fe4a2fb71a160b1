#pragma once
/// What a scenario does with a trace read by trace_formats.hpp: which part of it simulation
/// time 0 sees (`start_s`), whether it repeats (`loop`), a factor on every rate (`scale`); and
/// the summary `coinfer trace-info` prints.
///
///     TraceSchedule s = read_trace_file("lte.down", TraceFormat::Mahimahi, {});
///     TraceSchedule w = apply_trace_window(s, {.start_s = 30.0, .scale = 0.5, .loop = true});
///     TraceStats st = trace_stats(w);   // st.mean_bps: time-weighted mean over one period
#include <cstddef>

#include "sim/platform/trace_formats.hpp"

namespace coinfer {

struct TraceWindow {
  double start_s = 0.0;  ///< trace time start_s is simulation time 0 (>= 0)
  double scale = 1.0;    ///< every rate times scale (> 0); a result below 1 bit/s is held at 1
  bool loop = false;     ///< repeat with the schedule's period (which must be > 0)
};

/// The schedule seen from simulation time 0. With `loop`, trace time (start_s + t) mod period
/// maps to time t and the period is kept; without, points before start_s are dropped (the rate
/// in force at start_s holds from 0), the last rate holds forever, and the period is 0.
/// Expects `s.points` from t = 0. Throws `InputError("", "loop", ...)` when `loop` and the
/// schedule has no period.
TraceSchedule apply_trace_window(const TraceSchedule& s, const TraceWindow& w);

/// Time-weighted statistics over [0, duration_s): a point's weight is how long its rate holds.
struct TraceStats {
  double duration_s = 0.0;  ///< the period, else the last point's time (a one-point trace: 0)
  double mean_bps = 0.0, min_bps = 0.0, max_bps = 0.0;
  double p5_bps = 0.0, p50_bps = 0.0, p95_bps = 0.0;  ///< the least rate held >= p of the time
  std::size_t points = 0;
};

/// Expects a non-empty schedule from t = 0. A zero-length schedule (one point, no period) gets
/// its one rate everywhere.
TraceStats trace_stats(const TraceSchedule& s);

}  // namespace coinfer
