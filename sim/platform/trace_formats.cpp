#include "sim/platform/trace_formats.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

constexpr double kMahimahiPacketBits = 1500.0 * 8.0;
constexpr double kFccLine_s = 5.0;

std::string line_path(std::size_t number) { return fmt::format("line {}", number); }

// Calls f(line, number) for each line without its '\n' (and '\r'), numbered from 1.
template <class F>
void for_each_line(std::string_view text, F f) {
  std::size_t number = 1;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    auto line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    f(line, number++);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

bool is_separator(char c, bool comma) { return c == ' ' || c == '\t' || (comma && c == ','); }

// Fields of a line separated by blanks (and commas when `comma`).
std::vector<std::string_view> split_fields(std::string_view line, bool comma) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_separator(line[i], comma)) ++i;
    const auto start = i;
    while (i < line.size() && !is_separator(line[i], comma)) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

enum class NumberStatus { Ok, NotANumber, OutOfRange };

NumberStatus to_number(std::string_view s, double& v) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);  // as strtod reads "+5"
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec == std::errc::result_out_of_range) return NumberStatus::OutOfRange;
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v))
    return NumberStatus::NotANumber;
  return NumberStatus::Ok;
}

// The fields of `line` as `count` numbers; throws naming `what` ("time_s throughput_Mbps").
std::vector<double> numbers(std::string_view line, std::size_t number, std::size_t count, bool comma,
                            const std::string& file, const char* what) {
  const auto fields = split_fields(line, comma);
  std::vector<double> out(fields.size());
  bool ok = fields.size() == count;
  for (std::size_t i = 0; ok && i < fields.size(); ++i) {
    const auto status = to_number(fields[i], out[i]);
    if (status == NumberStatus::OutOfRange)
      throw InputError(file, line_path(number), fmt::format("number out of range in '{}'", line));
    ok = status == NumberStatus::Ok;
  }
  if (!ok)
    throw InputError(file, line_path(number),
                     fmt::format("expected {} numbers '{}', got '{}'", count, what, line));
  return out;
}

bool blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

// A measured rate as a link rate: 0 is held at 1 bit/s (module comment), above 1e12 rejected.
double link_rate(double bps, const std::string& file, const std::string& where) {
  if (!(bps <= kMaxRate_bps))
    throw InputError(file, where, fmt::format("rate must be at most 1e+12 bps, got {}", bps));
  return std::max(bps, kMinRate_bps);
}

void require_nonnegative(double v, const char* what, const std::string& file, std::size_t number) {
  if (v < 0.0) throw InputError(file, line_path(number), fmt::format("{} must be >= 0, got {}", what, v));
}

// Times within a trace: in [0, 1e9] s, and after the previous one unless `first`; "" when so.
std::string time_problem(double t, double previous, bool first) {
  if (!(t >= 0.0) || !(t <= kMaxTime_s)) return fmt::format("time must be in [0, 1e+09] s, got {}", t);
  if (!first && !(t > previous)) return "times must increase strictly";
  return {};
}

void require_time(double t, double previous, bool first, const std::string& file, std::size_t number) {
  if (auto problem = time_problem(t, previous, first); !problem.empty())
    throw InputError(file, line_path(number), std::move(problem));
}

TraceSchedule finished(TraceSchedule s, const std::string& file) {
  if (s.points.empty()) throw InputError(file, "", "empty trace: no data lines");
  return s;
}

// Appends (t, rate) unless the rate in force already equals it (keeps schedules short).
void add_point(std::vector<std::pair<double, double>>& points, double t_s, double rate_bps) {
  if (!points.empty() && points.back().second == rate_bps) return;
  points.emplace_back(t_s, rate_bps);
}

// --- mahimahi -----------------------------------------------------------------------------

constexpr std::uint64_t kMaxOffset_ms = 1000000000000ull;  // 1e9 s

// One line at p, byte by byte (blank lines, '\r', long numbers, the file's last bytes, errors).
// Sets `v` and returns true when the line holds an offset; advances p past the line.
bool mahimahi_line_slow(const char*& p, const char* end, std::uint64_t number, const std::string& file,
                        std::uint64_t& v) {
  const char* const start = p;
  v = 0;
  while (p < end && static_cast<unsigned char>(*p - '0') < 10) {
    v = v * 10 + static_cast<unsigned>(*p - '0');
    if (v > kMaxOffset_ms) throw InputError(file, line_path(number), "offset beyond 1e+12 ms (1e+09 s)");
    ++p;
  }
  const bool digits = p > start;
  if (p < end && *p == '\r') ++p;
  if (p < end && *p != '\n') {
    const auto* eol =
        static_cast<const char*>(std::memchr(start, '\n', static_cast<std::size_t>(end - start)));
    const std::string_view line(start, static_cast<std::size_t>((eol ? eol : end) - start));
    throw InputError(file, line_path(number),
                     fmt::format("expected a millisecond offset (an integer >= 0), got '{}'", line));
  }
  ++p;
  return digits;
}

// Bits per byte of p[0..64) (bit i: p[i]): returns those that are '\n'; sets `odd` to those that
// are neither '\n' nor a digit.
inline std::uint64_t block_masks(const char* p, std::uint64_t& odd) {
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
  std::uint64_t newlines = 0, ok = 0;
  for (int w = 0; w < 4; ++w) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * w));
    const __m128i is_nl = _mm_cmpeq_epi8(x, nl);
    const __m128i d = _mm_sub_epi8(x, zero);
    const __m128i is_digit = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);  // (x - '0') as unsigned <= 9
    newlines |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(is_nl))) << (16 * w);
    ok |= static_cast<std::uint64_t>(
              static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(is_nl, is_digit))))
          << (16 * w);
  }
  odd = ~ok;
  return newlines;
#else
  std::uint64_t newlines = 0;
  odd = 0;
  for (int i = 0; i < 64; ++i) {
    const bool is_nl = p[i] == '\n';
    newlines |= static_cast<std::uint64_t>(is_nl) << i;
    odd |= static_cast<std::uint64_t>(!is_nl && static_cast<unsigned char>(p[i] - '0') > 9) << i;
  }
  return newlines;
#endif
}

// The offset in the `len` (1..8) digits at p (8 readable bytes at p): SWAR arithmetic, 8 digits in
// 3 multiplications. Shifting left by 64 - 8 len drops the bytes after the line (little endian)
// and leaves zeros, leading zeros, below the digits.
inline std::uint64_t swar_value(const char* p, std::size_t len) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  std::uint64_t d = (x - 0x3030303030303030ull) << (64 - 8 * len);  // a borrow only runs upwards
  d = (d * 10 + (d >> 8)) & 0x00FF00FF00FF00FFull;
  d = (d * 100 + (d >> 16)) & 0x0000FFFF0000FFFFull;
  return (d * 10000 + (d >> 32)) & 0xFFFFFFFFull;
}

[[noreturn]] __attribute__((noinline, cold)) void decreasing_offset(const std::string& file,
                                                                    std::uint64_t number, std::uint64_t v,
                                                                    std::uint64_t last) {
  throw InputError(file, line_path(number),
                   fmt::format("offsets must not decrease: {} ms after {} ms", v, last));
}

// A schedule holds at most this many bins (40 MB of counts; about 27.8 hours at 10 ms bins).
constexpr std::uint64_t kMaxMahimahiBins = 10'000'000;

[[noreturn]] __attribute__((noinline, cold)) void too_many_bins(const std::string& file, std::uint64_t number,
                                                                std::uint64_t v, std::uint64_t bin_ms) {
  throw InputError(file, line_path(number),
                   fmt::format("offset {} ms needs more than {} bins of {} ms: give a larger bin_ms "
                               "(at least {})",
                               v, kMaxMahimahiBins, bin_ms, (v + kMaxMahimahiBins - 1) / kMaxMahimahiBins));
}

// Opportunity counts per bin of one stretch of the file: counts[k] holds those at offsets in
// (k*bin, (k+1)*bin] ms (offset 0 in bin 0). `first_ms` / `last_ms`: its first and last offsets.
// Newlines and stray bytes are found 64 bytes at a time (SSE2), so that parsing a line does not
// wait for the previous one; lines of 1 to 8 digits (offsets below 1e8 ms, about 28 hours) take
// the SWAR path, any other line the byte-by-byte one. Offsets never decrease, so a bin closes
// once an offset passes it: no division per line. Messages number the stretch's lines from 1.
struct OpportunityCounts {
  std::vector<std::uint32_t> counts;
  std::uint64_t total = 0, first_ms = 0, last_ms = 0;
};

OpportunityCounts count_stretch(std::string_view text, const std::string& file, std::uint64_t bin_ms) {
  OpportunityCounts out;
  std::vector<std::uint32_t>& counts = out.counts;
  std::uint64_t last = 0, bin = 0, bin_end = bin_ms, total = 0, in_bin = 0;
  bool any = false;
  const auto add = [&](std::uint64_t v, std::uint64_t number) {
    if (v < last) [[unlikely]]
      decreasing_offset(file, number, v, last);
    if (!any) [[unlikely]] {
      any = true;
      out.first_ms = v;
    }
    if (v > bin_end) {
      if (in_bin > 0) {
        if (bin >= counts.size()) counts.resize(bin + 1, 0);
        counts[bin] += static_cast<std::uint32_t>(in_bin);
      }
      total += in_bin;
      in_bin = 0;
      if (v <= bin_end + bin_ms) {  // the next bin (the common case: no division)
        ++bin;
        bin_end += bin_ms;
      } else {
        bin = (v - 1) / bin_ms;
        bin_end = (bin + 1) * bin_ms;
      }
      if (bin >= kMaxMahimahiBins) [[unlikely]]
        too_many_bins(file, number, v, bin_ms);
    }
    ++in_bin;
    last = v;
  };
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  const char* line = begin;
  std::uint64_t number = 0, v = 0;
  // A block holding a byte other than a digit or '\n' sends its lines, and the one running on
  // into the next block, to the byte-by-byte path (which reads '\r', blanks, and reports errors).
  bool carried_odd = false;
  for (const char* block = begin; end - block >= 64; block += 64) {
    std::uint64_t odd = 0;
    const std::uint64_t newlines = block_masks(block, odd);
    const bool dirty = odd != 0;
    for (std::uint64_t mask = newlines; mask != 0; mask &= mask - 1) {
      const char* const nl = block + __builtin_ctzll(mask);
      ++number;
      const auto len = static_cast<std::size_t>(nl - line);
      const bool clean = !dirty && !(carried_odd && line < block);
      if (clean && len - 1 < 8 && end - line >= 8) {
        add(swar_value(line, len), number);
      } else {
        const char* p = line;
        if (mahimahi_line_slow(p, end, number, file, v)) add(v, number);
      }
      line = nl + 1;
    }
    carried_odd = dirty || (carried_odd && newlines == 0);
  }
  while (line < end)
    if (mahimahi_line_slow(line, end, ++number, file, v)) add(v, number);
  if (in_bin > 0) {
    if (bin >= counts.size()) counts.resize(bin + 1, 0);
    counts[bin] += static_cast<std::uint32_t>(in_bin);
  }
  out.total = total + in_bin;
  out.last_ms = last;
  return out;
}

// Files above this size are counted in two halves at once (split after a newline, so each half
// holds whole lines); the halves' bins add up, and the second half's first offset must not be
// below the first half's last. Any error is then reported by counting the whole file again in
// one piece, so that its message and line number are those of a serial read.
constexpr std::size_t kParallelBytes = std::size_t{4} << 20;

std::vector<std::uint32_t> count_opportunities(std::string_view text, const std::string& file,
                                               std::uint64_t bin_ms, std::uint64_t& last_ms) {
  OpportunityCounts all;
  const std::size_t cut = text.size() / 2;
  const std::size_t split = text.size() >= kParallelBytes ? text.find('\n', cut) : std::string_view::npos;
  if (split == std::string_view::npos) {
    all = count_stretch(text, file, bin_ms);
  } else {
    const std::string_view head = text.substr(0, split + 1), tail = text.substr(split + 1);
    OpportunityCounts second;
    std::exception_ptr second_error;
    std::thread worker([&] {
      try {
        second = count_stretch(tail, file, bin_ms);
      } catch (...) {
        second_error = std::current_exception();
      }
    });
    bool first_failed = false;
    try {
      all = count_stretch(head, file, bin_ms);
    } catch (...) {  // any error: the worker is joined first, then the serial read reports it
      first_failed = true;
    }
    worker.join();
    if (first_failed || second_error || (second.total > 0 && second.first_ms < all.last_ms)) {
      all = count_stretch(text, file, bin_ms);  // throws the serial read's error
    } else {
      if (second.counts.size() > all.counts.size()) all.counts.resize(second.counts.size(), 0);
      for (std::size_t k = 0; k < second.counts.size(); ++k) all.counts[k] += second.counts[k];
      if (second.total > 0) all.last_ms = second.last_ms;
      all.total += second.total;
    }
  }
  if (all.total == 0) throw InputError(file, "", "empty trace: no delivery opportunities");
  if (all.last_ms == 0)
    throw InputError(file, "", "the trace must end after 0 ms (its last offset is its period)");
  last_ms = all.last_ms;
  return std::move(all.counts);
}

// --- line formats -------------------------------------------------------------------------

std::size_t column_index(const std::vector<std::string_view>& fields, const std::string& name) {
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i] == name || fields[i] == "\"" + name + "\"") return i;
  return fields.size();
}

}  // namespace

const std::vector<std::string>& trace_format_names() {
  static const std::vector<std::string> names{"coinfer", "mahimahi",  "pensieve", "fcc",
                                              "hsdpa",   "belgium4g", "lumos5g"};
  return names;
}

TraceFormat trace_format_from_name(const std::string& name, const std::string& path) {
  const auto& names = trace_format_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    throw InputError("", path,
                     fmt::format("unknown trace format '{}'; known: {}", name, fmt::join(names, ", ")));
  return static_cast<TraceFormat>(it - names.begin());
}

std::string coinfer_point_problem(double t_s, double rate_bps, const double* previous_s) {
  auto problem = time_problem(t_s, previous_s != nullptr ? *previous_s : 0.0, previous_s == nullptr);
  if (!problem.empty()) return problem;
  if (!(rate_bps > 0.0) || !std::isfinite(rate_bps)) return fmt::format("rate must be > 0, got {}", rate_bps);
  if (!(rate_bps >= kMinRate_bps && rate_bps <= kMaxRate_bps))
    return fmt::format("rate must be in [1, 1e+12] bps, got {}", rate_bps);
  return {};
}

// The last point lasts as long as the interval before it.
double coinfer_period_s(const std::vector<std::pair<double, double>>& points) {
  const auto n = points.size();
  return n >= 2 ? 2.0 * points[n - 1].first - points[n - 2].first : 0.0;
}

TraceSchedule parse_coinfer_trace(std::string_view text, const std::string& file) {
  TraceSchedule s;
  auto& out = s.points;
  for_each_line(text, [&](std::string_view raw, std::size_t number) {
    const auto line = raw.substr(0, raw.find('#'));
    if (blank(line)) return;
    const auto fields = split_fields(line, true);
    double t = 0.0, r = 0.0;
    NumberStatus st = fields.size() == 2 ? to_number(fields[0], t) : NumberStatus::NotANumber;
    if (st == NumberStatus::Ok) st = to_number(fields[1], r);
    if (st == NumberStatus::OutOfRange)
      throw InputError(file, line_path(number), fmt::format("number out of range in '{}'", line));
    if (st != NumberStatus::Ok) {
      if (out.empty() && number == 1) return;  // a header line such as "time_s rate_bps"
      throw InputError(file, line_path(number),
                       fmt::format("expected two numbers 'time_s rate_bps', got '{}'", line));
    }
    if (auto problem = coinfer_point_problem(t, r, out.empty() ? nullptr : &out.back().first);
        !problem.empty())
      throw InputError(file, line_path(number), std::move(problem));
    out.emplace_back(t, r);
  });
  s.period_s = coinfer_period_s(out);
  return s;
}

TraceSchedule parse_mahimahi_trace(std::string_view text, const std::string& file, int bin_ms) {
  if (bin_ms < 1)
    throw InputError(file, "bin_ms", fmt::format("expected a bin width >= 1 ms, got {}", bin_ms));
  const auto bin = static_cast<std::uint64_t>(bin_ms);
  std::uint64_t last_ms = 0;
  auto counts = count_opportunities(text, file, bin, last_ms);
  counts.resize((last_ms + bin - 1) / bin, 0);  // bins up to the period, the last one maybe partial
  TraceSchedule s;
  s.period_s = static_cast<double>(last_ms) / 1000.0;
  s.points.reserve(counts.size());
  // A bin with the count and width of the one before has its rate: runs of equal bins (a steady
  // link) cost one comparison each.
  std::uint32_t previous_count = 0;
  std::uint64_t previous_width = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    const std::uint64_t begin_ms = k * bin;
    const std::uint64_t width_ms = std::min(bin, last_ms - begin_ms);
    if (k > 0 && counts[k] == previous_count && width_ms == previous_width) continue;
    previous_count = counts[k];
    previous_width = width_ms;
    const double bps = counts[k] * kMahimahiPacketBits / (static_cast<double>(width_ms) / 1000.0);
    if (!(bps <= kMaxRate_bps)) link_rate(bps, file, fmt::format("bin from {} ms", begin_ms));  // throws
    add_point(s.points, static_cast<double>(begin_ms) / 1000.0, std::max(bps, kMinRate_bps));
  }
  return s;
}

TraceSchedule parse_pensieve_trace(std::string_view text, const std::string& file) {
  TraceSchedule s;
  double t0 = 0.0, previous = 0.0;
  std::size_t rows = 0;
  for_each_line(text, [&](std::string_view line, std::size_t number) {
    if (blank(line)) return;
    const auto v = numbers(line, number, 2, false, file, "time_s throughput_Mbps");
    require_nonnegative(v[1], "throughput", file, number);
    require_time(v[0], previous, rows == 0, file, number);
    if (rows == 0) t0 = v[0];
    // Row i's throughput holds over (t[i-1], t[i]], as Pensieve's simulator reads it.
    if (rows > 0) add_point(s.points, previous - t0, link_rate(v[1] * 1e6, file, line_path(number)));
    previous = v[0];
    ++rows;
  });
  if (rows == 1)
    throw InputError(file, "line 1", "a pensieve trace needs two rows (the first marks the start)");
  s.period_s = previous - t0;
  return finished(std::move(s), file);
}

TraceSchedule parse_fcc_trace(std::string_view text, const std::string& file) {
  TraceSchedule s;
  std::size_t rows = 0;
  for_each_line(text, [&](std::string_view line, std::size_t number) {
    if (blank(line)) return;
    const auto v = numbers(line, number, 1, false, file, "bytes_per_s");
    require_nonnegative(v[0], "throughput", file, number);
    add_point(s.points, kFccLine_s * static_cast<double>(rows),
              link_rate(v[0] * 8.0, file, line_path(number)));
    ++rows;
  });
  s.period_s = kFccLine_s * static_cast<double>(rows);
  return finished(std::move(s), file);
}

TraceSchedule parse_six_column_trace(std::string_view text, const std::string& file) {
  TraceSchedule s;
  double origin_ms = 0.0, previous_ms = 0.0;
  bool first = true;
  for_each_line(text, [&](std::string_view line, std::size_t number) {
    if (blank(line)) return;
    const auto v = numbers(line, number, 6, false, file,
                           "clock ms_since_start latitude longitude bytes ms_since_previous");
    const double end_ms = v[1], bytes = v[4], window_ms = v[5];
    require_nonnegative(bytes, "byte count", file, number);
    if (!(window_ms > 0.0))
      throw InputError(file, line_path(number),
                       fmt::format("zero-length window: ms_since_previous must be > 0, got {}", window_ms));
    if (first) origin_ms = end_ms - window_ms;
    require_time((end_ms - origin_ms) / 1000.0, (previous_ms - origin_ms) / 1000.0, first, file, number);
    const double start_s = first ? 0.0 : (previous_ms - origin_ms) / 1000.0;
    add_point(s.points, start_s, link_rate(bytes * 8.0 / (window_ms / 1000.0), file, line_path(number)));
    previous_ms = end_ms;
    first = false;
  });
  s.period_s = (previous_ms - origin_ms) / 1000.0;
  return finished(std::move(s), file);
}

TraceSchedule parse_lumos5g_trace(std::string_view text, const std::string& file) {
  TraceSchedule s;
  std::size_t column = 0, width = 0, rows = 0;
  bool header = true;
  for_each_line(text, [&](std::string_view line, std::size_t number) {
    if (blank(line)) return;
    const auto fields = split_fields(line, true);
    if (header) {
      column = column_index(fields, "Throughput");
      if (column == fields.size())
        throw InputError(file, line_path(number), "the header has no 'Throughput' column (Mbit/s)");
      width = fields.size();
      header = false;
      return;
    }
    // Empty CSV cells would shift columns: lumos5g rows must fill every column.
    double mbps = 0.0;
    if (fields.size() != width)
      throw InputError(file, line_path(number),
                       fmt::format("expected {} columns as in the header, got {}", width, fields.size()));
    if (to_number(fields[column], mbps) != NumberStatus::Ok)
      throw InputError(file, line_path(number),
                       fmt::format("Throughput: expected a number (Mbit/s), got '{}'", fields[column]));
    require_nonnegative(mbps, "Throughput", file, number);
    add_point(s.points, static_cast<double>(rows), link_rate(mbps * 1e6, file, line_path(number)));
    ++rows;
  });
  if (header) throw InputError(file, "", "empty trace: no header line");
  s.period_s = static_cast<double>(rows);
  return finished(std::move(s), file);
}

TraceSchedule parse_trace(TraceFormat format, std::string_view text, const std::string& file,
                          const TraceReadOptions& options) {
  switch (format) {
    case TraceFormat::Mahimahi:
      return parse_mahimahi_trace(text, file, options.bin_ms);
    case TraceFormat::Pensieve:
      return parse_pensieve_trace(text, file);
    case TraceFormat::Fcc:
      return parse_fcc_trace(text, file);
    case TraceFormat::Hsdpa:
    case TraceFormat::Belgium4g:
      return parse_six_column_trace(text, file);
    case TraceFormat::Lumos5g:
      return parse_lumos5g_trace(text, file);
    default:
      return finished(parse_coinfer_trace(text, file), file);
  }
}

TraceSchedule read_trace_file(const std::string& path, TraceFormat format, const TraceReadOptions& options) {
  // The whole file mapped in one go (no copy: a 1-hour Mahimahi trace is about 28 MB).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path, "", "cannot open the trace file");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw InputError(path, "", "cannot read the trace file");
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return parse_trace(format, std::string_view(), path, options);
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) throw InputError(path, "", "cannot read the trace file");
  struct Unmap {
    std::size_t size;
    void operator()(void* m) const { ::munmap(m, size); }
  };
  const std::unique_ptr<void, Unmap> unmap(map, Unmap{size});
  return parse_trace(format, std::string_view(static_cast<const char*>(map), size), path, options);
}

}  // namespace coinfer
