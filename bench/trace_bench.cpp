// Cost of recording a trace: the same 1e5-frame stream (LeNet-5 offloaded from a phone to a GPU
// server over WiFi, 10 fps, estimate host profile) run by the `coinfer` binary with and without
// `--trace`, alternating, each run its own process (SimGrid runs once per process). Wall time from
// fork to exit; CPU time (user + system) and peak memory (ru_maxrss) from wait4: on a shared
// machine the wall time also counts waiting for a core, the CPU time only the run's own work.
// Prints the medians and the ratios traced / plain (targets: time <= 1.3, peak memory <= 1.1), the
// trace's size, and checks that both runs wrote the same results (but for resolved_scenario's
// outputs.trace) and that the trace is complete.
//
//     build/bench/trace_bench [--frames N] [--repeats R] [--coinfer PATH]
//
// PATH defaults to the coinfer binary of this build; point it at another build to measure it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "process_measure.hpp"

namespace {

namespace fs = std::filesystem;

using coinfer::bench::Measure;
using coinfer::bench::median;

Measure run(const std::vector<std::string>& argv) { return coinfer::bench::run_process(argv, "trace_bench"); }

// results.json without `resolved_scenario`, which records whether a trace was asked for.
std::string results_without_scenario(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  auto j = nlohmann::json::parse(in);
  j.erase("resolved_scenario");
  return j.dump();
}

// A whole trace object: `{"` ... `}` and a newline (a cut file would end elsewhere). The streamed
// format ends `],"displayTimeUnit":"ms"}`, the older whole-tree one `]}`.
bool trace_complete(const fs::path& p) {
  std::ifstream in(p, std::ios::binary | std::ios::ate);
  const auto size = static_cast<std::streamoff>(in.tellg());
  if (size < 4) return false;
  std::string head(2, '\0'), tail(2, '\0');
  in.seekg(0);
  in.read(head.data(), 2);
  in.seekg(size - 2);
  in.read(tail.data(), 2);
  return head == "{\"" && tail == "}\n";
}

}  // namespace

int main(int argc, char** argv) {
  long frames = 100000;
  int repeats = 3;
  std::string coinfer = (fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "coinfer").string();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--frames") frames = static_cast<long>(std::atof(argv[i + 1]));
    if (key == "--repeats") repeats = std::atoi(argv[i + 1]);
    if (key == "--coinfer") coinfer = argv[i + 1];
  }
  const fs::path root = COINFER_SOURCE_DIR;
  const fs::path dir = fs::temp_directory_path() / ("coinfer_trace_bench_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto scenario = dir / "stream.yaml";
  std::ofstream(scenario) << "name: trace-bench\nmodel: lenet5\nplatform: "
                          << (root / "platforms/edge_wifi_lte.yaml").string()
                          << "\nsource: phone\nhost_profile: {basis: estimate}\n"
                             "partitioner: {name: remote, server: server, network: wlan}\n"
                             "workload: {kind: stream, rate_fps: 10, frames: "
                          << frames << ", policy: drop}\nseed: 1\n";
  std::vector<Measure> plain, traced;
  const auto trace = dir / "traced/trace.json";
  for (int r = 0; r < repeats; ++r) {  // alternate, so drift in the machine's load hits both
    plain.push_back(run({coinfer, "run", scenario.string(), "--out", (dir / "plain").string(), "-q"}));
    traced.push_back(run({coinfer, "run", scenario.string(), "--out", (dir / "traced").string(), "--trace",
                          trace.string(), "-q"}));
  }
  const auto med = [](const std::vector<Measure>& v, double Measure::*field) {
    std::vector<double> x;
    for (const auto& m : v) x.push_back(m.*field);
    return median(x);
  };
  const bool same = results_without_scenario(dir / "plain/results.json") ==
                    results_without_scenario(dir / "traced/results.json");
  const bool complete = trace_complete(trace);
  const double trace_mib = static_cast<double>(fs::file_size(trace)) / (1 << 20);
  std::printf("trace cost: %ld-frame stream (lenet5, phone -> server over wlan), median of %d, %s\n", frames,
              repeats, coinfer.c_str());
  std::printf("  %-14s %9s %9s %10s\n", "", "cpu s", "wall s", "peak MiB");
  std::printf("  %-14s %9.3f %9.3f %10.1f\n", "plain", med(plain, &Measure::cpu_s),
              med(plain, &Measure::wall_s), med(plain, &Measure::peak_mib));
  std::printf("  %-14s %9.3f %9.3f %10.1f   trace %.1f MiB\n", "with --trace", med(traced, &Measure::cpu_s),
              med(traced, &Measure::wall_s), med(traced, &Measure::peak_mib), trace_mib);
  std::printf(
      "  ratio traced/plain: cpu time %.2fx, wall time %.2fx (target <= 1.3), peak memory %.2fx (target "
      "<= 1.1)\n",
      med(traced, &Measure::cpu_s) / med(plain, &Measure::cpu_s),
      med(traced, &Measure::wall_s) / med(plain, &Measure::wall_s),
      med(traced, &Measure::peak_mib) / med(plain, &Measure::peak_mib));
  std::printf("  results.json identical (resolved_scenario aside): %s  trace complete: %s\n",
              same ? "yes" : "NO", complete ? "yes" : "NO");
  fs::remove_all(dir);
  return same && complete ? 0 : 1;
}
