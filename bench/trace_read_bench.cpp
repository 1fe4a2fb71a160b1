// Speed of reading a public bandwidth trace: a 1-hour Mahimahi trace (about 3.6 M lines, one
// 1500-byte delivery opportunity each) read into a rate schedule (sim/platform/trace_formats.hpp,
// 10 ms bins), against `wc -l` on the same file in the same run: `wc` reads the file and counts
// its newlines, the least any reader must do. The file is written to a fresh temporary folder
// (removed at the end); both are timed after a first warm-up read, so both read from the page
// cache. Prints the medians, the ratio reader / wc (target <= 2) and the reader's absolute time
// (target < 1 s).
//
//     build/bench/trace_read_bench [--repeats R] [--seconds S]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "process_measure.hpp"
#include "sim/platform/trace_formats.hpp"

namespace {

namespace fs = std::filesystem;

// An LTE-like trace: per millisecond 0, 1 or 2 opportunities (mean about 1: 12 Mbit/s), seeded.
std::size_t write_trace(const fs::path& path, long seconds) {
  std::mt19937_64 rng(20161);
  std::uniform_int_distribution<int> pick(0, 19);
  std::string text;
  std::size_t lines = 0;
  char buf[24];
  for (long ms = 1; ms <= seconds * 1000; ++ms) {
    const int d = pick(rng);
    const int n = d < 18 ? 1 : (d == 18 ? 0 : 2);
    const int len = std::snprintf(buf, sizeof buf, "%ld\n", ms);
    for (int k = 0; k < n; ++k, ++lines) text.append(buf, static_cast<std::size_t>(len));
  }
  std::ofstream(path, std::ios::binary) << text;
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 7;
  long seconds = 3600;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--seconds") == 0) seconds = std::atol(argv[i + 1]);
  }
  if (repeats < 1 || seconds < 1) {
    std::fprintf(stderr, "usage: trace_read_bench [--repeats R >= 1] [--seconds S >= 1]\n");
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() / ("coinfer-trace-read-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "lte.down";
  const std::size_t lines = write_trace(file, seconds);

  std::vector<double> wc_s, read_s;
  std::size_t points = 0;
  for (int r = -1; r < repeats; ++r) {  // r = -1: warm-up, not counted
    const double wc =
        coinfer::bench::run_process({"/usr/bin/wc", "-l", file.string()}, "trace_read_bench").wall_s;
    const auto t0 = std::chrono::steady_clock::now();
    const auto s = coinfer::read_trace_file(file.string(), coinfer::TraceFormat::Mahimahi, {});
    const double read = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    points = s.points.size();
    if (r >= 0) {
      wc_s.push_back(wc);
      read_s.push_back(read);
    }
  }
  fs::remove_all(dir);
  const double wc = coinfer::bench::median(wc_s), read = coinfer::bench::median(read_s);
  std::printf("mahimahi trace: %ld s, %zu lines, %zu schedule points (10 ms bins)\n", seconds, lines, points);
  std::printf("median wall time over %d runs: wc -l %.4f s, read_trace_file %.4f s\n", repeats, wc, read);
  std::printf("ratio read_trace_file / wc -l wall time: %.3f (target <= 2)\n", read / wc);
  std::printf("read_trace_file under 1 s: %s\n", read < 1.0 ? "yes" : "no");
  return read < 1.0 ? 0 : 1;
}
