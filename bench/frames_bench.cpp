// Per-frame cost of a run as the run grows: the same stream (LeNet-5 offloaded from a phone to a
// GPU server over WiFi, 10 fps, estimate host profile, no outputs but results.json) with 1e3, 1e4,
// 1e5, 1e6 and 1e7 frames, each run its own `coinfer run` process. The fixed cost (loading,
// planning) is a 1-frame run's; per frame = (run - 1-frame run) / (frames - 1), for CPU time (user
// + system, from wait4: on a shared machine wall time also counts waiting for a core), wall time
// and peak memory (ru_maxrss); each size runs as pairs (1-frame run, n-frame run), 31 pairs at 1e3
// frames down to 3 at 1e6 and 1 at 1e7, and the median difference is taken. Prints one row per
// size, the spread of the CPU time per frame (target: within 10% from 1e3 to 1e7) and the peak of the largest
// run (target: < 400 MiB at 1e7).
//
//     build/bench/frames_bench [--max N] [--coinfer PATH] [--frames-csv]
//
// `--frames-csv` also writes frames.csv in every run. PATH defaults to this build's coinfer.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process_measure.hpp"

namespace {

namespace fs = std::filesystem;

using coinfer::bench::Measure;
using coinfer::bench::median;

Measure run(const std::vector<std::string>& argv) {
  return coinfer::bench::run_process(argv, "frames_bench");
}

void write_scenario(const fs::path& file, long frames, bool csv) {
  const fs::path root = COINFER_SOURCE_DIR;
  std::ofstream(file) << "name: frames-bench\nmodel: lenet5\nplatform: "
                      << (root / "platforms/edge_wifi_lte.yaml").string()
                      << "\nsource: phone\nhost_profile: {basis: estimate}\n"
                         "partitioner: {name: remote, server: server, network: wlan}\n"
                         "workload: {kind: stream, rate_fps: 10, frames: "
                      << frames
                      << ", policy: drop}\nseed: 1\noutputs: {frames_csv: " << (csv ? "true" : "false")
                      << "}\n";
}

struct Row {
  Measure run;            ///< medians of the n-frame runs
  double cpu_s = 0.0;     ///< median over the pairs of (n-frame run - 1-frame run)
  double wall_s = 0.0;    ///< likewise
  double peak_mib = 0.0;  ///< median peak of the n-frame runs - median peak of the 1-frame runs
};

// `repeats` pairs of runs, a 1-frame run then an n-frame run: the medians of the differences
// (the fixed cost of loading and planning varies by a few ms from run to run, as much as a
// thousand frames cost, so small sizes need many pairs).
Row measure(const std::string& coinfer, const fs::path& dir, long frames, int repeats, bool csv) {
  write_scenario(dir / "one.yaml", 1, csv);
  write_scenario(dir / "n.yaml", frames, csv);
  std::vector<double> cpu, wall, peak, run_cpu, run_wall, base_peak;
  for (int r = 0; r < repeats; ++r) {
    const auto base =
        run({coinfer, "run", (dir / "one.yaml").string(), "--out", (dir / "out").string(), "-q"});
    const auto m = run({coinfer, "run", (dir / "n.yaml").string(), "--out", (dir / "out").string(), "-q"});
    cpu.push_back(m.cpu_s - base.cpu_s);
    wall.push_back(m.wall_s - base.wall_s);
    run_cpu.push_back(m.cpu_s);
    run_wall.push_back(m.wall_s);
    peak.push_back(m.peak_mib);
    base_peak.push_back(base.peak_mib);
  }
  return {{median(run_wall), median(run_cpu), median(peak)},
          median(cpu),
          median(wall),
          median(peak) - median(base_peak)};
}

}  // namespace

int main(int argc, char** argv) {
  double max_frames = 1e7;
  bool csv = false;
  std::string coinfer = (fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "coinfer").string();
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key == "--frames-csv") csv = true;
    if (key == "--max" && i + 1 < argc) max_frames = std::atof(argv[++i]);
    if (key == "--coinfer" && i + 1 < argc) coinfer = argv[++i];
  }
  const fs::path dir = fs::temp_directory_path() / ("coinfer_frames_bench_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::printf("per-frame cost: lenet5 stream, phone -> server over wlan, %s%s\n", coinfer.c_str(),
              csv ? ", with frames.csv" : "");
  std::printf("  %10s %6s %9s %9s %11s %12s %10s %9s\n", "frames", "pairs", "cpu s", "wall s", "cpu us/fr",
              "wall us/fr", "peak MiB", "B/frame");
  std::vector<double> per_frame_us;
  double last_peak = 0.0;
  for (double n = 1e3; n <= max_frames * 1.0001; n *= 10) {
    const long frames = static_cast<long>(n);
    const int pairs = frames <= 1000      ? 31
                      : frames <= 10000   ? 15
                      : frames <= 100000  ? 5
                      : frames <= 1000000 ? 3
                                          : 1;
    const Row row = measure(coinfer, dir, frames, pairs, csv);
    const double extra = static_cast<double>(frames - 1);
    const double cpu_us = row.cpu_s / extra * 1e6;
    per_frame_us.push_back(cpu_us);
    last_peak = row.run.peak_mib;
    std::printf("  %10ld %6d %9.3f %9.3f %11.2f %12.2f %10.1f %9.1f\n", frames, pairs, row.run.cpu_s,
                row.run.wall_s, cpu_us, row.wall_s / extra * 1e6, row.run.peak_mib,
                row.peak_mib * (1 << 20) / extra);
    std::fflush(stdout);
  }
  const auto [lo, hi] = std::minmax_element(per_frame_us.begin(), per_frame_us.end());
  std::printf("  cpu time per frame, max/min over the sizes: %.2f (target <= 1.10)\n", *hi / *lo);
  std::printf("  peak memory of the largest run: %.1f MiB%s\n", last_peak,
              max_frames >= 1e7 ? " (target < 400 MiB at 1e7 frames)" : "");
  fs::remove_all(dir);
  return 0;
}
