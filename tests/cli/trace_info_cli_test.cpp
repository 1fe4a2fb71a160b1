// `coinfer trace-info`: the summary, the CSV and the plot of a bandwidth trace, and its errors.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Contains;

namespace {

// fcc: 125000, 250000, 375000, 125000 B/s = 1, 2, 3, 1 Mbit/s, 5 s each: 20 s.
std::string fcc_trace() { return write_text("rates.fcc", "125000\n250000\n375000\n125000\n").string(); }

}  // namespace

TEST_CASE("trace-info prints the duration, time-weighted mean and quantiles, and the point count") {
  const auto r = run_cli("trace-info " + fcc_trace() + " --format fcc");
  REQUIRE(r.exit_code == 0);
  // Mean (1 + 2 + 3 + 1) * 5 / 20 = 1.75. By rate: 1 (10 s), 2 (5 s), 3 (5 s) of 20 s:
  // p5 (1 s) and p50 (10 s) -> 1, p95 (19 s) -> 3.
  CHECK_THAT(r.out, Contains("duration 20 s (the trace's period), 4 points"));
  CHECK_THAT(r.out, Contains("mean 1.75, min 1, p5 1, p50 1, p95 3, max 3"));
}

TEST_CASE("trace-info --start-s --scale --csv writes the schedule a link would follow") {
  const auto csv = scratch_dir() / "s.csv";
  const auto r =
      run_cli("trace-info " + fcc_trace() + " --format fcc --start-s 5 --scale 2 --csv " + csv.string());
  REQUIRE(r.exit_code == 0);
  // From trace time 5, looping every 20 s: 2, 3, 1 Mbit/s, then trace time 0 (1 Mbit/s) at 15 s;
  // doubled.
  CHECK(read_text(csv) == "time_s,rate_mbps\n0,4\n5,6\n10,2\n15,2\n");
}

TEST_CASE("trace-info --png writes a 640 x 240 PNG") {
  const auto png = scratch_dir() / "rate.png";
  const auto r = run_cli("trace-info " + fcc_trace() + " --format fcc --png " + png.string());
  REQUIRE(r.exit_code == 0);
  const auto bytes = read_text(png);
  REQUIRE(bytes.size() > 24);
  CHECK(bytes.substr(1, 3) == "PNG");
  // IHDR: width and height as 4-byte big-endian numbers at offsets 16 and 20.
  const auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    return v;
  };
  CHECK(be32(16) == 640);
  CHECK(be32(20) == 240);
}

TEST_CASE("trace-info: a bad trace line is one error line with the file and line, exit 2") {
  const auto bad = write_text("bad.log", "1 1000 0 0 5 1000\n2 2000 0 0 5 0\n");
  const auto r = run_cli("trace-info " + bad.string() + " --format hsdpa");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains(bad.string() + ": line 2: zero-length window"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("trace-info: an unknown format names the known ones, exit 2") {
  const auto r = run_cli("trace-info " + fcc_trace() + " --format mm");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--format: unknown trace format 'mm'; known: coinfer, mahimahi"));
}

TEST_CASE("trace-info: --bin-ms with a format other than mahimahi is an error, exit 2") {
  const auto r = run_cli("trace-info " + fcc_trace() + " --format fcc --bin-ms 5");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--bin-ms: applies to --format mahimahi only"));
}
