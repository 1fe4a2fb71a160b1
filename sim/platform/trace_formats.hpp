#pragma once
/// Public bandwidth-trace formats, each read into one rate schedule: (time_s, rate_bps) points
/// from t = 0, each rate holding until the next point, plus the format's natural period (how
/// long the trace lasts; a looping trace restarts after it). Units and windowing per format:
///
/// - `coinfer`: lines `time_s rate_bps` (space or comma), `#` comments, blank lines and one
///   non-numeric header line skipped. Times increase strictly from >= 0. Natural period: the
///   last time plus the last interval (none for a one-point trace).
/// - `mahimahi` (mm-link): one integer per line, a millisecond offset; each line is one
///   1500-byte delivery opportunity (repeats: several in that millisecond), offsets never
///   decrease. Period: the last offset. Opportunities are binned into `bin_ms`-wide bins; a bin
///   holding n opportunities carries n * 12000 bit over its width (an opportunity at offset t ms
///   counts in the bin holding (t-1, t]). A file holding just `1` is 12 Mbit/s.
/// - `pensieve` (Pensieve's simulator traces): lines `time_s throughput_Mbps`; as Pensieve's
///   simulator reads them, row i's throughput holds over (t[i-1], t[i]]: the first row only
///   marks the start. Times shift so that t[0] is 0; period t[last] - t[0].
/// - `fcc`: one throughput per line in bytes/s, each line 5 s: line k holds over [5k, 5k + 5) s.
/// - `hsdpa` (Norway 3G, Riiser et al.) and `belgium4g` (Ghent 4G/LTE, van der Hooft et al.):
///   six columns `clock ms_since_start latitude longitude bytes ms_since_previous`, clock in unix
///   s (hsdpa) or ms (belgium4g). Row i's rate is bytes * 8 / (ms_since_previous / 1000) bit/s,
///   held from the previous row's ms_since_start to its own (row 0 from its own start,
///   ms_since_start - ms_since_previous, which becomes t = 0). Period: the span covered.
/// - `lumos5g` (Lumos5G CSV): a header row naming the columns, one row per second; the
///   `Throughput` column in Mbit/s (the unit of the Lumos5G paper; the dataset's README states
///   none), other columns ignored. Row k holds over [k, k + 1) s.
///
/// A zero rate (an empty Mahimahi bin, a row with 0 bytes) is held at 1 bit/s, the least rate a
/// link takes: SimGrid cannot model a link of rate 0 (a transfer would never finish).
///
///     TraceSchedule s = read_trace_file("lte.down", TraceFormat::Mahimahi, {});
///     double first_rate_bps = s.points.front().second;
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coinfer {

/// A link's ranges (platform_yaml.cpp gives the reasons): rates in [1, 1e12] bps, times of a
/// trace in [0, 1e9] s.
inline constexpr double kMinRate_bps = 1.0, kMaxRate_bps = 1e12;
inline constexpr double kMaxTime_s = 1e9;

enum class TraceFormat { Coinfer, Mahimahi, Pensieve, Fcc, Hsdpa, Belgium4g, Lumos5g };

/// A trace read into piecewise-constant rates.
struct TraceSchedule {
  std::vector<std::pair<double, double>> points;  ///< (time_s, rate_bps), times increasing
  double period_s = 0.0;                          ///< natural period; 0: none (coinfer, one point)
};

struct TraceReadOptions {
  int bin_ms = 10;  ///< Mahimahi bin width in ms (>= 1)
};

/// Format names in the order listings show them: coinfer, mahimahi, pensieve, fcc, hsdpa,
/// belgium4g, lumos5g.
const std::vector<std::string>& trace_format_names();
/// Throws `InputError("", path, ...)` naming the known formats for an unknown name.
TraceFormat trace_format_from_name(const std::string& name, const std::string& path);

/// Parses `text` in `format`. Throws `InputError(file, "line N", ...)` on a non-number, a
/// decreasing time, a negative byte count or rate, a zero-length window, a missing column, and
/// `InputError(file, "", ...)` for an empty trace.
TraceSchedule parse_trace(TraceFormat format, std::string_view text, const std::string& file,
                          const TraceReadOptions& options);
/// Reads `path` in one go and parses it. Throws `InputError` when it cannot be read.
TraceSchedule read_trace_file(const std::string& path, TraceFormat format, const TraceReadOptions& options);

/// What is wrong with (t_s, rate_bps) as a point of a coinfer trace after one at `*previous_s`
/// (the first point when null): the time must be in [0, 1e9] s and increase strictly, the rate
/// in [1, 1e12] bps. "" when nothing is; else the message an `InputError` carries.
std::string coinfer_point_problem(double t_s, double rate_bps, const double* previous_s);
/// A coinfer trace's natural period: its last time plus the last interval; 0 (none) for fewer
/// than two points.
double coinfer_period_s(const std::vector<std::pair<double, double>>& points);

TraceSchedule parse_coinfer_trace(std::string_view text, const std::string& file);
TraceSchedule parse_mahimahi_trace(std::string_view text, const std::string& file, int bin_ms);
TraceSchedule parse_pensieve_trace(std::string_view text, const std::string& file);
TraceSchedule parse_fcc_trace(std::string_view text, const std::string& file);
/// hsdpa and belgium4g: the same six columns (the clock's unit differs; it is not used).
TraceSchedule parse_six_column_trace(std::string_view text, const std::string& file);
TraceSchedule parse_lumos5g_trace(std::string_view text, const std::string& file);

}  // namespace coinfer
