// Each public trace format read from a small fixture written to the format's documentation;
// expected schedules derived by hand in the comments (trace_formats.hpp states the windowing).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "sim/core/error.hpp"
#include "sim/platform/trace_formats.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;
using Points = std::vector<std::pair<double, double>>;

namespace {

void check_points(const Points& got, const Points& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].first == Approx(want[i].first).epsilon(1e-12));
    CHECK(got[i].second == Approx(want[i].second).epsilon(1e-12));
  }
}

std::string error_of(TraceFormat f, const std::string& text) {
  try {
    parse_trace(f, text, "t.txt", {});
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// Seconds until `bits` have passed over a piecewise-constant schedule from t = 0.
double fluid_completion_s(const Points& p, double period_s, double bits) {
  for (std::size_t i = 0;; ++i) {
    const double start = p[i].first;
    const double end = i + 1 < p.size() ? p[i + 1].first : period_s;
    const double carried = p[i].second * (end - start);
    if (carried >= bits || i + 1 == p.size()) return start + bits / p[i].second;
    bits -= carried;
  }
}

}  // namespace

TEST_CASE("mahimahi: a file holding just 1 is 12 Mbit/s") {
  // One 1500-byte opportunity per 1 ms period: 1500 * 8 / 0.001 = 12e6 bit/s.
  const auto s = parse_trace(TraceFormat::Mahimahi, "1\n", "t", {});
  check_points(s.points, {{0.0, 12e6}});
  CHECK(s.period_s == 0.001);
}

TEST_CASE("mahimahi: one opportunity per millisecond is exactly 12 Mbit/s in every bin") {
  std::string text;
  for (int ms = 1; ms <= 1000; ++ms) text += std::to_string(ms) + "\n";
  // Each 10 ms bin holds 10 opportunities: 10 * 12000 bit / 0.01 s = 12e6; equal bins merge.
  const auto s = parse_trace(TraceFormat::Mahimahi, text, "t", {10});
  check_points(s.points, {{0.0, 12e6}});
  CHECK(s.period_s == 1.0);
}

TEST_CASE("mahimahi: repeats add opportunities, an empty bin holds 1 bit/s, the last bin may be partial") {
  // bin 2 ms, period 5 ms: (0,2] holds 2,2,2 -> 3 * 12000 / 0.002 = 18e6; (2,4] none -> 1 bit/s;
  // (4,5] is 1 ms wide and holds 5 -> 12000 / 0.001 = 12e6.
  const auto s = parse_trace(TraceFormat::Mahimahi, "2\n2\n2\n5\n", "t", {2});
  check_points(s.points, {{0.0, 18e6}, {0.002, 1.0}, {0.004, 12e6}});
  CHECK(s.period_s == Approx(0.005));
}

TEST_CASE("mahimahi: CRLF line ends, blank lines and a missing final newline are read") {
  // Offsets 1, 1, 3 in one 10 ms bin of width 3 ms (the period): 3 * 12000 / 0.003 = 12e6.
  const auto s = parse_trace(TraceFormat::Mahimahi, "1\r\n\n1\n3", "t", {10});
  check_points(s.points, {{0.0, 12e6}});
}

TEST_CASE("mahimahi: long files take the fast path and give the same bins as short ones") {
  // 2000 lines (well past the 64-byte blocks), 2 opportunities at every odd ms up to 1999:
  // each 10 ms bin holds 5 odd offsets = 10 opportunities -> 12e6; period 1999 ms, last bin
  // (1990, 1999] 9 ms wide holds 1991..1999 (5 odd) = 10 -> 10 * 12000 / 0.009.
  std::string text;
  for (int ms = 1; ms < 2000; ms += 2) text += std::to_string(ms) + "\n" + std::to_string(ms) + "\n";
  const auto s = parse_trace(TraceFormat::Mahimahi, text, "t", {10});
  check_points(s.points, {{0.0, 12e6}, {1.99, 10 * 12000 / 0.009}});
}

TEST_CASE("mahimahi: binning changes a transfer's completion by less than one bin") {
  // Per-packet delivery: the k-th opportunity (offset t_k ms) delivers bytes 1500(k-1)..1500k.
  // At every bin boundary both models have delivered the same bytes since t = 0, so a transfer
  // starting at a boundary and ending in bin j ends in bin j under both: |difference| < bin.
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> burst(0, 4);
  std::vector<int> offsets;
  for (int ms = 1; ms <= 2000; ++ms)
    for (int k = burst(rng) == 0 ? 3 : (burst(rng) < 2 ? 0 : 1); k > 0; --k) offsets.push_back(ms);
  std::string text;
  for (int t : offsets) text += std::to_string(t) + "\n";
  for (const int bin_ms : {1, 10, 50}) {
    const auto s = parse_trace(TraceFormat::Mahimahi, text, "t", {bin_ms});
    double worst_s = 0.0;
    for (std::size_t bytes = 100; bytes <= 1500 * offsets.size(); bytes += 977) {
      const double packet_s = offsets[(bytes + 1499) / 1500 - 1] / 1000.0;
      worst_s = std::max(worst_s, std::abs(fluid_completion_s(s.points, s.period_s, 8.0 * bytes) - packet_s));
    }
    CHECK(worst_s < bin_ms / 1000.0);
  }
}

TEST_CASE("pensieve: each row's Mbit/s holds over the interval ending at its time") {
  // Rows (0, 5), (1, 2), (2, 8), (2.5, 4): (0,1] 2e6, (1,2] 8e6, (2,2.5] 4e6; the first row
  // only marks the start (as Pensieve's simulator reads it); period 2.5 s.
  const auto s = parse_trace(TraceFormat::Pensieve, "0.0 5.0\n1.0 2.0\n2.0 8.0\n2.5 4.0\n", "t", {});
  check_points(s.points, {{0.0, 2e6}, {1.0, 8e6}, {2.0, 4e6}});
  CHECK(s.period_s == 2.5);
}

TEST_CASE("pensieve: times shift so that the first row is t = 0") {
  // Rows at 10 and 12 s: 3 Mbit/s over (0, 2]; period 2 s.
  const auto s = parse_trace(TraceFormat::Pensieve, "10 1\n12 3\n", "t", {});
  check_points(s.points, {{0.0, 3e6}});
  CHECK(s.period_s == 2.0);
}

TEST_CASE("fcc: one bytes-per-second value per 5 s line") {
  // 125000 B/s = 1e6 bit/s over [0,5), 250000 = 2e6 over [5,10), 0 -> 1 bit/s over [10,15).
  const auto s = parse_trace(TraceFormat::Fcc, "125000\n250000\n0\n", "t", {});
  check_points(s.points, {{0.0, 1e6}, {5.0, 2e6}, {10.0, 1.0}});
  CHECK(s.period_s == 15.0);
}

TEST_CASE("hsdpa: bytes over the window's milliseconds, held from the previous row") {
  // origin = 549692 - 1008 = 548684 ms. Row 0: 248069 * 8 / 1.008 s from 0; row 1:
  // 191698 * 8 / 1.080 from (549692 - 548684) ms = 1.008 s; row 2: 280579 * 8 / 1.001 from
  // 2.088 s; period (551773 - 548684) ms = 3.089 s.
  const auto s = parse_trace(TraceFormat::Hsdpa,
                             "1289406399 549692 59.851754 10.781778 248069 1008\n"
                             "1289406400 550772 59.851864 10.781833 191698 1080\n"
                             "1289406401 551773 59.851964 10.781901 280579 1001\n",
                             "t", {});
  check_points(s.points,
               {{0.0, 248069 * 8 / 1.008}, {1.008, 191698 * 8 / 1.080}, {2.088, 280579 * 8 / 1.001}});
  CHECK(s.period_s == Approx(3.089));
}

TEST_CASE("belgium4g: the same columns with a millisecond clock") {
  // origin 1000 - 1000 = 0. Rows: 1250000 B / 1 s = 10e6; 2500000 / 1 s = 20e6 from 1 s;
  // 625000 B / 0.5 s = 10e6 from 2 s (the window "0500" has a leading zero); period 3 s.
  const auto s = parse_trace(TraceFormat::Belgium4g,
                             "1700000000000 1000 51.05 3.72 1250000 1000\n"
                             "1700000001000 2000 51.05 3.72 2500000 1000\n"
                             "1700000002000 3000 51.05 3.72 625000 0500\n",
                             "t", {});
  check_points(s.points, {{0.0, 10e6}, {1.0, 20e6}, {2.0, 10e6}});
  CHECK(s.period_s == 3.0);
}

TEST_CASE("lumos5g: the Throughput column in Mbit/s, one row per second") {
  // Rows k = 0, 1, 2 hold [k, k+1): 100.5e6, 850e6, 0 -> 1 bit/s; period 3 s.
  const auto s = parse_trace(TraceFormat::Lumos5g,
                             "run_num,seq_num,latitude,longitude,Throughput,nrStatus\n"
                             "1,1,44.97,-93.26,100.5,CONNECTED\n"
                             "1,2,44.97,-93.26,850,CONNECTED\n"
                             "1,3,44.97,-93.26,0,NOT_RESTRICTED\n",
                             "t", {});
  check_points(s.points, {{0.0, 100.5e6}, {1.0, 850e6}, {2.0, 1.0}});
  CHECK(s.period_s == 3.0);
}

TEST_CASE("coinfer: the last point lasts as long as the interval before it") {
  // Points at 0 and 2 s: period 2 + (2 - 0) = 4 s.
  const auto s = parse_trace(TraceFormat::Coinfer, "time_s rate_bps\n0 1e6\n2 3e6\n", "t", {});
  check_points(s.points, {{0.0, 1e6}, {2.0, 3e6}});
  CHECK(s.period_s == 4.0);
}

TEST_CASE("trace formats: non-monotonic timestamps name the file and line") {
  CHECK_THAT(error_of(TraceFormat::Mahimahi, "1\n5\n3\n"),
             Catch::Contains("t.txt: line 3: offsets must not decrease"));
  CHECK_THAT(error_of(TraceFormat::Pensieve, "0 1\n2 1\n1 1\n"),
             Catch::Contains("t.txt: line 3: times must increase"));
  CHECK_THAT(error_of(TraceFormat::Hsdpa, "0 2000 0 0 10 1000\n1 1500 0 0 10 100\n"),
             Catch::Contains("t.txt: line 2: times must increase"));
}

TEST_CASE("trace formats: an empty trace is an error naming the file") {
  for (const auto f : {TraceFormat::Mahimahi, TraceFormat::Pensieve, TraceFormat::Fcc, TraceFormat::Belgium4g,
                       TraceFormat::Lumos5g, TraceFormat::Coinfer})
    CHECK_THAT(error_of(f, "\n\n"), Catch::StartsWith("t.txt: ") && Catch::Contains("empty trace"));
}

TEST_CASE("trace formats: a negative byte count or rate is an error with its line") {
  CHECK_THAT(error_of(TraceFormat::Hsdpa, "0 1000 0 0 -5 1000\n"),
             Catch::Contains("t.txt: line 1: byte count must be >= 0"));
  CHECK_THAT(error_of(TraceFormat::Fcc, "10\n-5\n"),
             Catch::Contains("t.txt: line 2: throughput must be >= 0"));
  CHECK_THAT(error_of(TraceFormat::Mahimahi, "1\n-2\n"),
             Catch::Contains("t.txt: line 2: expected a millisecond offset"));
}

TEST_CASE("trace formats: a zero-length window is an error with its line") {
  CHECK_THAT(error_of(TraceFormat::Belgium4g, "1 1000 0 0 5 1000\n2 2000 0 0 5 0\n"),
             Catch::Contains("t.txt: line 2: zero-length window"));
}

TEST_CASE("trace formats: a non-number is an error with its line") {
  CHECK_THAT(error_of(TraceFormat::Mahimahi, "1\n1.5\n"),
             Catch::Contains("t.txt: line 2: expected a millisecond offset"));
  CHECK_THAT(error_of(TraceFormat::Pensieve, "0 1\n1 fast\n"),
             Catch::Contains("t.txt: line 2: expected 2 numbers"));
  CHECK_THAT(error_of(TraceFormat::Hsdpa, "0 1000 0 0 5\n"),
             Catch::Contains("t.txt: line 1: expected 6 numbers"));
  CHECK_THAT(error_of(TraceFormat::Lumos5g, "Throughput\n1\nx\n"),
             Catch::Contains("t.txt: line 3: Throughput: expected a number"));
}

TEST_CASE("lumos5g: a header without a Throughput column is an error") {
  CHECK_THAT(error_of(TraceFormat::Lumos5g, "run_num,seq_num,speed\n1,1,0\n"),
             Catch::Contains("t.txt: line 1: the header has no 'Throughput' column"));
}

TEST_CASE("trace formats: an unknown format name lists the known ones") {
  CHECK_THROWS_WITH(
      trace_format_from_name("mm", "format"),
      Catch::Contains(
          "unknown trace format 'mm'; known: coinfer, mahimahi, pensieve, fcc, hsdpa, belgium4g, lumos5g"));
}

TEST_CASE("trace formats: a missing trace file is an error naming it") {
  CHECK_THROWS_WITH(read_trace_file("/nonexistent/coinfer/lte.down", TraceFormat::Mahimahi, {}),
                    Catch::StartsWith("/nonexistent/coinfer/lte.down: cannot open"));
}

TEST_CASE("mahimahi: a long CRLF file reads as its LF twin") {
  // Every block holds '\r' bytes, so every line takes the byte-by-byte path: same schedule.
  std::string lf, crlf;
  for (int ms = 1; ms <= 3000; ms += 1 + ms % 3) {
    lf += std::to_string(ms) + "\n";
    crlf += std::to_string(ms) + "\r\n";
  }
  const auto a = parse_trace(TraceFormat::Mahimahi, lf, "t", {10});
  const auto b = parse_trace(TraceFormat::Mahimahi, crlf, "t", {10});
  CHECK(a.points == b.points);
  CHECK(a.period_s == b.period_s);
}

TEST_CASE("mahimahi: offsets that change length, repeat or carry leading zeros read as their CRLF twin") {
  // The fast path compares a line's digits with the last line's and the bin end's written with as
  // many digits, and parses only lines that close a bin or change length: offsets around 10^k
  // (9 -> 10 ... 9999999 -> 10000000), repeats, gaps of several bins and zero-padded lines
  // ("0042", of the previous line's length or not) must count as the all-byte-by-byte CRLF read does.
  std::string lf, crlf;
  std::mt19937 rng(7);
  std::uint64_t ms = 0;
  const auto line = [&](const std::string& digits) {
    lf += digits + "\n";
    crlf += digits + "\r\n";
  };
  for (std::uint64_t decade = 10; decade <= 10000000; decade *= 10) {
    for (ms = std::max(ms, decade - 40); ms < decade + 40; ms += rng() % 4) {
      const std::string digits = std::to_string(ms);
      line(digits);
      if (rng() % 5 == 0) line(digits);          // a repeat
      if (rng() % 17 == 0) line("00" + digits);  // the same offset, zero-padded to a longer line
    }
    ms += 25 * (rng() % 3);  // sometimes a gap of bins
  }
  for (int bin_ms : {3, 10, 1000}) {
    const auto a = parse_trace(TraceFormat::Mahimahi, lf, "t", {bin_ms});
    const auto b = parse_trace(TraceFormat::Mahimahi, crlf, "t", {bin_ms});
    CHECK(a.points == b.points);
    CHECK(a.period_s == b.period_s);
  }
}

TEST_CASE("mahimahi: a file over 4 MiB read from disk gives the schedule of its text") {
  // Large files are read into huge pages where the kernel gives them (else mapped): either way the
  // schedule is the text's, and so is an error's line number.
  std::string text;
  std::mt19937 rng(11);
  for (int ms = 1; ms <= 700000; ++ms)
    for (unsigned k = rng() % 3; k > 0; --k) text += std::to_string(ms) + "\n";
  REQUIRE(text.size() > (std::size_t{4} << 20));
  const test::ScratchDir dir;
  const auto file = dir.write("big.down", text);
  const auto from_disk = read_trace_file(file, TraceFormat::Mahimahi, {});
  const auto from_text = parse_trace(TraceFormat::Mahimahi, text, file, {});
  CHECK(from_disk.points == from_text.points);
  CHECK(from_disk.period_s == from_text.period_s);
  const auto bad = dir.write("bad.down", text + "12x\n");
  const auto lines = std::count(text.begin(), text.end(), '\n');
  CHECK_THROWS_WITH(read_trace_file(bad, TraceFormat::Mahimahi, {}),
                    Catch::Contains("line " + std::to_string(lines + 1)));
}

TEST_CASE("mahimahi: a stray byte deep in a long file is reported at its line") {
  // Lines 1..1000 hold offsets 1..1000; line 700 reads "700x".
  std::string text;
  for (int ms = 1; ms <= 1000; ++ms) text += std::to_string(ms) + (ms == 700 ? "x\n" : "\n");
  CHECK_THAT(error_of(TraceFormat::Mahimahi, text),
             Catch::Contains("t.txt: line 700: expected a millisecond offset"));
}

namespace {

// A Mahimahi trace past the 4 MiB at which the reader counts two halves at once: at ms k
// (1..700,000) k % 3 opportunities, about 4.9 MB. Returns the text; `bins` gets the expected
// opportunities per 10 ms bin (ms k in bin (k - 1) / 10).
std::string two_half_trace(std::vector<int>& bins) {
  std::string text;
  bins.assign(70000, 0);
  for (int ms = 1; ms <= 700000; ++ms)
    for (int k = 0; k < ms % 3; ++k) {
      text += std::to_string(ms) + "\n";
      ++bins[static_cast<std::size_t>((ms - 1) / 10)];
    }
  return text;
}

}  // namespace

TEST_CASE("mahimahi: a file read in two halves gives every bin's count of a serial read") {
  // Bin b's rate: its opportunities x 12000 bits over 10 ms; equal neighbours merge into one point.
  std::vector<int> bins;
  const std::string text = two_half_trace(bins);
  REQUIRE(text.size() > (std::size_t{4} << 20));
  Points want;
  for (std::size_t b = 0; b < bins.size(); ++b) {
    const double bps = bins[b] * 12000.0 / 0.01;
    if (want.empty() || want.back().second != bps) want.emplace_back(static_cast<double>(b) * 0.01, bps);
  }
  const auto s = parse_trace(TraceFormat::Mahimahi, text, "t", {10});
  CHECK(s.period_s == 700.0);  // the last offset: 700,000 ms (700,000 % 3 = 1 opportunity)
  check_points(s.points, want);
}

TEST_CASE("mahimahi: an offset decreasing right after the halves' split names its line") {
  // The halves split at the first newline past the middle; the line after it is rewritten with
  // as many digits but a smaller value, so only the check across the split can see it.
  std::vector<int> bins;
  std::string text = two_half_trace(bins);
  const std::size_t split = text.find('\n', text.size() / 2);
  const std::size_t next_end = text.find('\n', split + 1);
  const std::string before =
      text.substr(text.rfind('\n', split - 1) + 1, split - text.rfind('\n', split - 1) - 1);
  const std::size_t digits = next_end - split - 1;
  text.replace(split + 1, digits, "1" + std::string(digits - 1, '0'));
  const auto line =
      static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<long>(split) + 1, '\n')) +
      1;
  CHECK_THAT(error_of(TraceFormat::Mahimahi, text),
             Catch::Contains("t.txt: line " + std::to_string(line) + ": offsets must not decrease: 1" +
                             std::string(digits - 1, '0') + " ms after " + before + " ms"));
}

TEST_CASE("mahimahi: a stray byte in the second half is reported at its line in the file") {
  std::vector<int> bins;
  std::string text = two_half_trace(bins);
  const std::size_t at = text.find('\n', text.size() * 3 / 4);  // the end of a line in the second half
  text.insert(at, "x");
  const auto line =
      static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')) + 1;
  CHECK_THAT(error_of(TraceFormat::Mahimahi, text),
             Catch::Contains("t.txt: line " + std::to_string(line) + ": expected a millisecond offset"));
}

TEST_CASE("mahimahi: an offset needing more than 10 million bins names its line and the bin_ms it needs") {
  // 9e11 ms at 10 ms bins: 9e10 bins; 9e11 / 1e7 = 90,000 ms per bin at least.
  CHECK_THAT(
      error_of(TraceFormat::Mahimahi, "1\n2\n900000000000\n"),
      Catch::Contains("t.txt: line 3: offset 900000000000 ms needs more than 10000000 bins of 10 ms") &&
          Catch::Contains("at least 90000"));
  // 1e8 ms (27.8 h) at 10 ms: bin 9,999,999, the last allowed
  CHECK_NOTHROW(parse_trace(TraceFormat::Mahimahi, "100000000\n", "t", {10}));
}
