#include "sim/platform/trace_formats.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

// The number (from 1) of the line that starts at `line` in the text that starts at `begin`: counted
// only for a message, so that reading never keeps count.
std::uint64_t line_number(const char* begin, const char* line) {
  return static_cast<std::uint64_t>(std::count(begin, line, '\n')) + 1;
}

// One line at p, byte by byte (blank lines, '\r', long numbers, the file's last bytes, errors).
// Sets `v` and returns true when the line holds an offset; advances p past the line. `begin`: the
// text's start, to number the line in a message.
bool mahimahi_line_slow(const char*& p, const char* begin, const char* end, const std::string& file,
                        std::uint64_t& v) {
  const char* const start = p;
  v = 0;
  while (p < end && static_cast<unsigned char>(*p - '0') < 10) {
    v = v * 10 + static_cast<unsigned>(*p - '0');
    if (v > kMaxOffset_ms)
      throw InputError(file, line_path(line_number(begin, start)), "offset beyond 1e+12 ms (1e+09 s)");
    ++p;
  }
  const bool digits = p > start;
  if (p < end && *p == '\r') ++p;
  if (p < end && *p != '\n') {
    const auto* eol =
        static_cast<const char*>(std::memchr(start, '\n', static_cast<std::size_t>(end - start)));
    const std::string_view line(start, static_cast<std::size_t>((eol ? eol : end) - start));
    throw InputError(file, line_path(line_number(begin, start)),
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

// The offset in the `len` (1..8) digits at the start of x (8 bytes as read from memory): SWAR
// arithmetic, 8 digits in 3 multiplications. Shifting left by 64 - 8 len drops the bytes after the
// line (little endian) and leaves zeros, leading zeros, below the digits.
inline std::uint64_t swar_word(std::uint64_t x, std::size_t len) {
  std::uint64_t d = (x - 0x3030303030303030ull) << (64 - 8 * len);  // a borrow only runs upwards
  d = (d * 10 + (d >> 8)) & 0x00FF00FF00FF00FFull;
  d = (d * 100 + (d >> 16)) & 0x0000FFFF0000FFFFull;
  return (d * 10000 + (d >> 32)) & 0xFFFFFFFFull;
}

// The same for the `len` digits at p (8 readable bytes at p).
inline std::uint64_t swar_value(const char* p, std::size_t len) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  return swar_word(x, len);
}

[[noreturn]] __attribute__((noinline, cold)) void decreasing_offset(const std::string& file,
                                                                    std::uint64_t number, std::uint64_t v,
                                                                    std::uint64_t last) {
  throw InputError(file, line_path(number),
                   fmt::format("offsets must not decrease: {} ms after {} ms", v, last));
}

constexpr std::uint64_t kPowersOf10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

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
// (b*bin, (b+1)*bin] ms for b = first_bin + k (offset 0 in bin 0). `first_ms` / `last_ms`: its first
// and last offsets.
struct OpportunityCounts {
  std::vector<std::uint32_t> counts;
  std::uint64_t first_bin = 0, total = 0, first_ms = 0, last_ms = 0;
};

// The bin of offset v: (k*bin, (k+1)*bin] ms is bin k, and offset 0 is in bin 0.
std::uint64_t bin_of(std::uint64_t v, std::uint64_t bin_ms) { return v == 0 ? 0 : (v - 1) / bin_ms; }

// Makes the pages of [p, p + bytes) present and writable in one call where the kernel can
// (MADV_POPULATE_WRITE, Linux 5.14): writing them then takes no page fault each, which on some
// virtual machines costs more than the writing. Only a hint: a failure changes nothing.
void prefault(void* p, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t from = (start + page - 1) / page * page, to = (start + bytes) / page * page;
  if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

// The digits of a line of `len` (1..8) digits at p (8 readable bytes at p) as one number whose
// bytes are the digits, the first one highest: two lines of the same length compare as their offsets
// do, leading zeros or not.
inline std::uint64_t digits_key(const char* p, std::size_t len) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  return __builtin_bswap64(x) >> (64 - 8 * len);
}

// The per-line state of a count: the bin being filled and the last offset. Offsets never decrease,
// so a bin closes once an offset passes it: no division per line. A line of as many digits as the
// one before is not even parsed while its digits compare between the last line's and the bin's
// end's (written with that many digits): only a line that closes a bin, changes length or is out of
// order is.
class BinCounter {
 public:
  // Bins from `first_bin` on (no offset of the stretch lies before it); the counts are laid out up
  // to `last_bin` at once (a hint: they grow past it if need be), on pages made present first.
  BinCounter(const std::string& file, const char* begin, std::uint64_t bin_ms, std::uint64_t first_bin,
             std::uint64_t last_bin)
      : file_(file),
        begin_(begin),
        bin_ms_(bin_ms),
        bin_(first_bin),
        bin_end_((first_bin + 1) * bin_ms),
        base_(first_bin) {
    const std::size_t n = last_bin >= first_bin ? last_bin - first_bin + 1 : 1;
    counts_.reserve(n);
    prefault(counts_.data(), n * sizeof(std::uint32_t));
    counts_.resize(n, 0);
  }

  // The line of `len` (1..8) digits at `line`, with 8 readable bytes at `line`. Out of line, as is
  // everything but the key path, so that the reading loop keeps its state in registers.
  __attribute__((noinline)) void add_digits(const char* line, std::size_t len) {
    const std::uint64_t key = digits_key(line, len);
    if (len == len_ && key >= last_key_) [[likely]] {
      if (key > bin_end_key_) {  // past the bin's end
        next_bin(swar_value(line, len), line);
        bin_end_key_ = padded_key(bin_end_, len);
      }
      ++in_bin_;
      last_key_ = key;
      return;
    }
    add(swar_value(line, len), line);
    len_ = len;
    last_key_ = key;
    bin_end_key_ = padded_key(bin_end_, len);
  }

  // The key path's state, which the reading loop keeps in registers between calls: the last line's
  // digits (0: no key path), its key, the bin end's key, and the lines it took since the last call.
  struct Keys {
    std::size_t len = 0;
    std::uint64_t last = 0, bin_end = 0, run = 0;
  };
  Keys keys() const { return {len_, last_key_, bin_end_key_, 0}; }
  // Takes back the loop's state before any other call: its lines are in the bin being filled.
  void absorb(Keys& k) {
    in_bin_ += k.run;
    k.run = 0;
    len_ = k.len;
    last_key_ = k.last;
  }

  // The offset v of the line that starts at `line`, however written.
  void add(std::uint64_t v, const char* line) {
    const std::uint64_t last = last_value();
    if (v < last) [[unlikely]]
      decreasing_offset(file_, line_number(begin_, line), v, last);
    if (v > bin_end_) next_bin(v, line);
    ++in_bin_;
    last_ = v;
    len_ = 0;  // the keys hold again from the next line of 1..8 digits on
  }

  OpportunityCounts finish() {
    flush();
    OpportunityCounts out;
    counts_.resize(bin_ - base_ + 1);  // the bins past the last offset
    out.counts = std::move(counts_);
    out.first_bin = base_;
    out.total = total_;
    out.last_ms = last_value();
    return out;
  }

 private:
  // `value` written with `len` (1..8) digits, leading zeros, as a key; above any key when it needs
  // more digits. The digits come out in SWAR too: 8 = 4 + 4 (/ 10000), each 4 = 2 + 2 (/ 100, as
  // x * 5243 >> 19 in 32-bit lanes), each 2 = 1 + 1 (/ 10, as x * 103 >> 10 in 16-bit lanes).
  static std::uint64_t padded_key(std::uint64_t value, std::size_t len) {
    if (value >= kPowersOf10[len]) return ~std::uint64_t{0};
    std::uint64_t x = (value % 10000) | ((value / 10000) << 32);
    const std::uint64_t hundreds = ((x * 5243) >> 19) & 0x0000007F0000007Full;
    x = (x - hundreds * 100) | (hundreds << 16);
    const std::uint64_t tens = ((x * 103) >> 10) & 0x000F000F000F000Full;
    x = (x - tens * 10) | (tens << 8);
    const std::uint64_t key = x + 0x3030303030303030ull;  // byte i: the digit of 10^i
    return len == 8 ? key : key & ((std::uint64_t{1} << (8 * len)) - 1);
  }

  std::uint64_t last_value() const {
    if (len_ == 0) return last_;
    return swar_word(__builtin_bswap64(last_key_ << (64 - 8 * len_)), len_);
  }

  void flush() {
    if (in_bin_ == 0) return;
    if (bin_ < base_) [[unlikely]] {  // not for a text read without error; kept correct all the same
      counts_.insert(counts_.begin(), base_ - bin_, 0);
      base_ = bin_;
    }
    const std::uint64_t k = bin_ - base_;
    if (k >= counts_.size()) [[unlikely]]
      counts_.resize(std::max<std::size_t>(k + 1, 2 * counts_.size()), 0);
    counts_[k] += static_cast<std::uint32_t>(in_bin_);
    total_ += in_bin_;
    in_bin_ = 0;
  }

  void next_bin(std::uint64_t v, const char* line) {
    flush();
    if (v <= bin_end_ + bin_ms_) {  // the next bin (the common case: no division)
      ++bin_;
      bin_end_ += bin_ms_;
    } else {
      bin_ = (v - 1) / bin_ms_;
      bin_end_ = (bin_ + 1) * bin_ms_;
    }
    if (bin_ >= kMaxMahimahiBins) [[unlikely]]
      too_many_bins(file_, line_number(begin_, line), v, bin_ms_);
  }

  const std::string& file_;
  const char* begin_;
  std::uint64_t bin_ms_, bin_, bin_end_, base_, in_bin_ = 0, total_ = 0, last_ = 0;
  std::size_t len_ = 0;  // the last line's digits when it took the key path, else 0
  std::uint64_t last_key_ = 0, bin_end_key_ = 0;
  std::vector<std::uint32_t> counts_;
};

// The first offset of a text already read without error (0 when it holds none).
std::uint64_t first_offset(std::string_view text) {
  for (const char *p = text.data(), *end = p + text.size(); p < end; ++p) {
    if (static_cast<unsigned char>(*p - '0') >= 10) continue;  // a blank line's '\r' or '\n'
    std::uint64_t v = 0;
    while (p < end && static_cast<unsigned char>(*p - '0') < 10)
      v = v * 10 + static_cast<unsigned>(*p++ - '0');
    return v;
  }
  return 0;
}

// The last line's offset, read backwards (0 when it holds none): a size hint only, so a text not yet
// read whole is fine.
std::uint64_t last_offset(std::string_view text) {
  std::size_t end = text.size();
  while (end > 0 && static_cast<unsigned char>(text[end - 1] - '0') >= 10) --end;  // '\n', '\r', blank lines
  std::size_t start = end;
  while (start > 0 && end - start < 19 && static_cast<unsigned char>(text[start - 1] - '0') < 10) --start;
  std::uint64_t v = 0;
  for (std::size_t i = start; i < end; ++i) v = v * 10 + static_cast<unsigned>(text[i] - '0');
  return v;
}

// The lines from `line` up to `nl_or_end` byte by byte, after the keys' run (out of line: see
// BinCounter::add_digits). Returns the keys to resume with and where the next line starts (by value:
// the loop's pointer never has its address taken, so it stays in a register).
struct SlowLines {
  BinCounter::Keys keys;
  const char* line;
};
__attribute__((noinline)) SlowLines slow_lines(BinCounter& counter, BinCounter::Keys keys, const char* line,
                                               const char* nl_or_end, const char* begin, const char* end,
                                               const std::string& file) {
  counter.absorb(keys);
  std::uint64_t v = 0;
  while (line < nl_or_end) {
    const char* const start = line;
    if (mahimahi_line_slow(line, begin, end, file, v)) counter.add(v, start);
  }
  return {counter.keys(), line};
}

// Counts one stretch of the file. Newlines and stray bytes are found 64 bytes at a time (SSE2), so
// that parsing a line does not wait for the previous one. In a block of digits and newlines only,
// lines of 1 to 8 digits (offsets below 1e8 ms, about 28 hours) take the SWAR path; any other line,
// every line of a block holding another byte, and the line running on from it into the next block
// take the byte-by-byte one, as do the last bytes. Line numbers are counted only for a message.
OpportunityCounts count_stretch(std::string_view text, const std::string& file, std::uint64_t bin_ms,
                                std::uint64_t first_bin, std::uint64_t last_bin) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  BinCounter counter(file, begin, bin_ms, first_bin, last_bin);
  BinCounter::Keys keys;
  const char* line = begin;
  const auto slow = [&counter, begin, end, &file](const char* from, const char* nl_or_end,
                                                  BinCounter::Keys& k) {
    const SlowLines r = slow_lines(counter, k, from, nl_or_end, begin, end, file);
    k = r.keys;
    return r.line;
  };
  bool carried_odd = false;
  // Any line starting in a block of the loop has 8 readable bytes: 64 + 8 bytes from the block on.
  for (const char* block = begin; end - block >= 64 + 8; block += 64) {
    std::uint64_t odd = 0;
    const std::uint64_t newlines = block_masks(block, odd);
    if ((odd | static_cast<std::uint64_t>(carried_odd)) == 0) [[likely]] {
      for (std::uint64_t mask = newlines; mask != 0; mask &= mask - 1) {
        const char* const nl = block + __builtin_ctzll(mask);
        const auto len = static_cast<std::size_t>(nl - line);
        if (len - 1 < 8) [[likely]] {
          const std::uint64_t key = digits_key(line, len);
          if (len == keys.len && key >= keys.last && key <= keys.bin_end) [[likely]] {
            ++keys.run;
            keys.last = key;
          } else {
            BinCounter::Keys k = keys;
            counter.absorb(k);
            counter.add_digits(line, len);
            keys = counter.keys();
          }
          line = nl + 1;
        } else {
          line = slow(line, nl + 1, keys);
        }
      }
    } else {
      for (std::uint64_t mask = newlines; mask != 0; mask &= mask - 1)
        line = slow(line, block + __builtin_ctzll(mask) + 1, keys);
      carried_odd = odd != 0 || (carried_odd && newlines == 0);
    }
  }
  slow(line, end, keys);  // absorbs the keys' last run
  OpportunityCounts out = counter.finish();
  out.first_ms = first_offset(text);
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
  // Every stretch lays its counts out up to the file's last bin at once: the halves then add up in place.
  const std::uint64_t hint = bin_of(last_offset(text), bin_ms), last_bin = hint < kMaxMahimahiBins ? hint : 0;
  const std::size_t cut = text.size() / 2;
  const std::size_t split = text.size() >= kParallelBytes ? text.find('\n', cut) : std::string_view::npos;
  if (split == std::string_view::npos) {
    all = count_stretch(text, file, bin_ms, 0, last_bin);
  } else {
    const std::string_view head = text.substr(0, split + 1), tail = text.substr(split + 1);
    OpportunityCounts second;
    std::exception_ptr second_error;
    std::thread worker([&] {
      try {
        const std::uint64_t first_bin = std::min(bin_of(first_offset(tail), bin_ms), last_bin);
        second = count_stretch(tail, file, bin_ms, first_bin, last_bin);
      } catch (...) {
        second_error = std::current_exception();
      }
    });
    bool first_failed = false;
    try {
      all = count_stretch(head, file, bin_ms, 0, last_bin);
    } catch (...) {  // any error: the worker is joined first, then the serial read reports it
      first_failed = true;
    }
    worker.join();
    if (first_failed || second_error || (second.total > 0 && second.first_ms < all.last_ms)) {
      all = count_stretch(text, file, bin_ms, 0, last_bin);  // throws the serial read's error
    } else {
      const std::size_t base = second.first_bin, size = base + second.counts.size();
      if (size > all.counts.size()) all.counts.resize(size, 0);
      for (std::size_t k = 0; k < second.counts.size(); ++k) all.counts[base + k] += second.counts[k];
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
  prefault(s.points.data(), counts.size() * sizeof(s.points[0]));
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

namespace {

// Whether the kernel gives transparent huge pages to a region that asks for them (MADV_HUGEPAGE).
bool huge_pages_on_request() {
  std::FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f) return false;
  char line[128] = {};
  const bool read = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  return read && (std::strstr(line, "[always]") || std::strstr(line, "[madvise]"));
}

// The `size` bytes of file `fd` in a buffer of transparent huge pages, read in two halves at once;
// null when the kernel has none to give or the file did not read whole. On a virtual machine whose
// page faults and page walks are dear, parsing from 4 KiB pages of the page cache (a mapping) took
// longer than copying into 2 MiB pages and parsing there (bench/trace_read_bench.cpp).
struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};
std::unique_ptr<char, FreeDeleter> read_into_huge_pages(int fd, std::size_t size) {
  if (!huge_pages_on_request()) return nullptr;
  const std::size_t huge = std::size_t{2} << 20, capacity = (size + huge - 1) / huge * huge;
  std::unique_ptr<char, FreeDeleter> buffer(static_cast<char*>(std::aligned_alloc(huge, capacity)));
  if (!buffer) return nullptr;
  ::madvise(buffer.get(), capacity, MADV_HUGEPAGE);
  prefault(buffer.get(), capacity);
  const auto read_range = [fd, &buffer](std::size_t from, std::size_t to) {
    while (from < to) {
      const ssize_t n = ::pread(fd, buffer.get() + from, to - from, static_cast<off_t>(from));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      from += static_cast<std::size_t>(n);
    }
    return true;
  };
  bool second_ok = false;
  std::thread worker([&] { second_ok = read_range(size / 2, size); });
  const bool first_ok = read_range(0, size / 2);
  worker.join();
  if (!first_ok || !second_ok) return nullptr;
  return buffer;
}

}  // namespace

TraceSchedule read_trace_file(const std::string& path, TraceFormat format, const TraceReadOptions& options) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path, "", "cannot open the trace file");
  struct Close {
    int fd;
    ~Close() { ::close(fd); }
  } const close_fd{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError(path, "", "cannot read the trace file");
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) return parse_trace(format, std::string_view(), path, options);
  // A large file in huge pages where the kernel has them, else (and any smaller file) mapped in one
  // go, with its pages mapped up front.
  if (size >= kParallelBytes) {
    if (const auto buffer = read_into_huge_pages(fd, size))
      return parse_trace(format, std::string_view(buffer.get(), size), path, options);
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  if (map == MAP_FAILED) throw InputError(path, "", "cannot read the trace file");
  struct Unmap {
    std::size_t size;
    void operator()(void* m) const { ::munmap(m, size); }
  };
  const std::unique_ptr<void, Unmap> unmap(map, Unmap{size});
  return parse_trace(format, std::string_view(static_cast<const char*>(map), size), path, options);
}

}  // namespace coinfer
