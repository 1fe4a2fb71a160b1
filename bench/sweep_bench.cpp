// Sweep throughput: a 200-point single-inference sweep (VGG-16 on the edge platform, local, seeds
// 1..200) run by `coinfer sweep --launch exec` (every run a fresh `coinfer run` process: dynamic
// loading of SimGrid and ns-3 each time) and by `--launch fork` (every run a fork of the sweep
// process, which has loaded everything and parsed the sweep once), alternating in this run, both
// with --jobs 2. Prints runs per second of each, the ratio (target >= 5), and checks that both
// wrote byte-identical results.csv files.
//
//     build/bench/sweep_bench [repeats] [points]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Seconds `coinfer sweep` takes with the given launcher; exits on failure.
double time_sweep(const std::string& coinfer, const fs::path& sweep, const fs::path& out,
                  const char* launch) {
  fs::remove_all(out);
  const auto cmd = coinfer + " sweep " + sweep.string() + " --jobs 2 --launch " + launch + " --out " +
                   out.string() + " >/dev/null 2>&1";
  const auto t0 = std::chrono::steady_clock::now();
  if (std::system(cmd.c_str()) != 0) {
    std::fprintf(stderr, "sweep_bench: '%s' failed\n", cmd.c_str());
    std::exit(1);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  const int points = argc > 2 ? std::atoi(argv[2]) : 200;
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  const std::string coinfer = (exe.parent_path().parent_path() / "coinfer").string();
  const fs::path root = COINFER_SOURCE_DIR;
  const fs::path dir = fs::temp_directory_path() / ("coinfer_sweep_bench_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto sweep = dir / "sweep.yaml";
  std::ofstream(sweep)
      << "name: bench\nscenario:\n  model: vgg16\n  platform: "
      << (root / "platforms/edge_wifi_lte.yaml").string()
      << "\n  source: phone\n  host_profile: {basis: estimate}\n  partitioner: {name: local}\n"
         "  workload: {kind: single}\naxes:\n  - seeds: {from: 1, count: "
      << points << "}\n";
  std::vector<double> exec_s, fork_s;
  for (int r = 0; r < repeats; ++r) {  // alternate, so drift in the machine's load hits both
    exec_s.push_back(time_sweep(coinfer, sweep, dir / "exec", "exec"));
    fork_s.push_back(time_sweep(coinfer, sweep, dir / "fork", "fork"));
  }
  const bool same = read_file(dir / "exec/results.csv") == read_file(dir / "fork/results.csv");
  const double exec_rate = points / median(exec_s), fork_rate = points / median(fork_s);
  std::printf("sweep of %d single inferences, --jobs 2, median of %d:\n", points, repeats);
  std::printf("  exec (a process start per run): %7.3f s  %7.1f runs/s\n", median(exec_s), exec_rate);
  std::printf("  fork (no program load):         %7.3f s  %7.1f runs/s\n", median(fork_s), fork_rate);
  std::printf("  ratio fork/exec runs per second: %.2f (target >= 5)\n", fork_rate / exec_rate);
  std::printf("  results.csv byte-identical: %s\n", same ? "yes" : "NO");
  fs::remove_all(dir);
  return same ? 0 : 1;
}
