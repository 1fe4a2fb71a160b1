// Reading a large sparse FC problem: the inline JSON list of [i, j] pairs against a Matrix Market
// file, on the same matrix, in one run.
//
// The matrix is VGG-16's FC6 in MoDNN's orientation (25088 inputs x 4096 outputs) at the sparsity
// the MoDNN scenarios use at most (96%, scenarios/modnn/modnn-fc-sparsity.yaml), GENERATED (seeded
// Gaussian, magnitude-pruned per row: partitioners/modnn/sparse_weights.hpp): 4.1 M non-zeros.
// Both problems are written to a scratch folder, then each is read the way `coinfer solve mscc
// P.json` reads it (read_json_file + parse_mscc_problem; the .mtx problem is a small JSON naming
// `matrix_file`), `--repeats` times. Reported: file size, wall and thread CPU time of the parse
// (best of the repeats), and the peak of live heap bytes during it (every operator new/delete is
// counted), then the JSON / .mtx ratios. The two parsed patterns are checked to be equal.
//
//     ./build/bench/mtx_bench [--sparsity 0.96] [--repeats 3] [--json] [--keep DIR]
//
// `--keep DIR` leaves the three files in DIR (fc6.json, fc6.mtx and fc6_mtx.json, which names
// fc6.mtx), for timing `coinfer solve mscc DIR/fc6.json` against `... DIR/fc6_mtx.json` end to end.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <string>

#include <fmt/format.h>

#include "partitioners/modnn/matrix_market.hpp"
#include "partitioners/modnn/mscc.hpp"
#include "partitioners/modnn/sparse_weights.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/json_access.hpp"

#include "bench/heap_count.hpp"

namespace {

using namespace coinfer;

struct Measure {
  double wall_s = 1e300, cpu_s = 1e300;
  double peak_mib = 0;
  std::uintmax_t file_bytes = 0;
  std::size_t nonzeros = 0;
};

/// Parses `problem_file` as `coinfer solve mscc` does, `repeats` times; best times, largest peak.
Measure measure(const std::string& problem_file, const std::string& data_file, int repeats,
                modnn::SparsePattern& out) {
  Measure m;
  m.file_bytes = std::filesystem::file_size(data_file);
  for (int r = 0; r < repeats; ++r) {
    const auto base = g_live_bytes.load();
    g_peak_bytes.store(base);
    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = thread_cpu_s();
    {
      const Json problem = read_json_file(problem_file);
      auto p = modnn::parse_mscc_problem(problem, std::filesystem::path(problem_file).parent_path());
      if (r == repeats - 1) out = std::move(p.pattern);
    }
    m.cpu_s = std::min(m.cpu_s, thread_cpu_s() - cpu0);
    m.wall_s =
        std::min(m.wall_s, std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count());
    m.peak_mib = std::max(m.peak_mib, double(g_peak_bytes.load() - base) / (1024.0 * 1024.0));
  }
  m.nonzeros = out.entries.size();
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  double sparsity = 0.96;
  int repeats = 3;
  bool json_out = false;
  std::string keep;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--sparsity" && i + 1 < argc) {
      sparsity = std::atof(argv[++i]);
    } else if (a == "--repeats" && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--keep" && i + 1 < argc) {
      keep = argv[++i];
    } else if (a == "--json") {
      json_out = true;
    } else {
      std::fprintf(stderr, "usage: mtx_bench [--sparsity S] [--repeats N] [--json] [--keep DIR]\n");
      return 2;
    }
  }
  const auto dir =
      keep.empty() ? std::filesystem::temp_directory_path() / fmt::format("coinfer-mtx-bench-{}", ::getpid())
                   : std::filesystem::path(keep);
  std::filesystem::create_directories(dir);
  const auto json_file = (dir / "fc6.json").string(), mtx_problem = (dir / "fc6_mtx.json").string(),
             mtx_file = (dir / "fc6.mtx").string();
  {
    const auto t0 = std::chrono::steady_clock::now();
    const auto w =
        modnn::generate_sparse_weights({.rows = 25088, .cols = 4096, .sparsity = sparsity, .seed = 1});
    // The entries list is written by hand: a Json of 4 M pairs would itself take a GiB to build.
    fmt::memory_buffer text;
    fmt::format_to(std::back_inserter(text),
                   "{{\"rows\": {}, \"cols\": {}, \"clusters\": 4, \"seed\": 42, \"entries\": [",
                   w.pattern.rows, w.pattern.cols);
    for (std::size_t e = 0; e < w.pattern.entries.size(); ++e)
      fmt::format_to(std::back_inserter(text), "{}[{},{}]", e ? "," : "", w.pattern.entries[e].row,
                     w.pattern.entries[e].col);
    fmt::format_to(std::back_inserter(text), "]}}\n");
    write_file_atomic(json_file, fmt::to_string(text));
    write_file_atomic(mtx_file,
                      modnn::matrix_market_text(w.pattern, nullptr, "VGG-16 FC6, generated, seed 1"));
    write_file_atomic(mtx_problem, R"({"matrix_file": "fc6.mtx", "clusters": 4, "seed": 42})");
    std::fprintf(stderr, "generated and wrote %zu non-zeros in %.1f s\n", w.pattern.entries.size(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  modnn::SparsePattern from_json, from_mtx;
  const auto mtx = measure(mtx_problem, mtx_file, repeats, from_mtx);
  const auto js = measure(json_file, json_file, repeats, from_json);
  const bool same = from_json.rows == from_mtx.rows && from_json.cols == from_mtx.cols &&
                    from_json.entries == from_mtx.entries;
  if (keep.empty()) std::filesystem::remove_all(dir);

  if (json_out) {
    const Json out = {{"matrix", "VGG-16 FC6 25088 x 4096, generated"},
                      {"sparsity", sparsity},
                      {"nonzeros", mtx.nonzeros},
                      {"same_pattern", same},
                      {"json",
                       {{"file_mb", double(js.file_bytes) / 1e6},
                        {"wall_s", js.wall_s},
                        {"cpu_s", js.cpu_s},
                        {"peak_heap_mib", js.peak_mib}}},
                      {"mtx",
                       {{"file_mb", double(mtx.file_bytes) / 1e6},
                        {"wall_s", mtx.wall_s},
                        {"cpu_s", mtx.cpu_s},
                        {"peak_heap_mib", mtx.peak_mib}}},
                      {"json_over_mtx",
                       {{"cpu", js.cpu_s / mtx.cpu_s},
                        {"wall", js.wall_s / mtx.wall_s},
                        {"peak_heap", js.peak_mib / mtx.peak_mib}}}};
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    std::printf("VGG-16 FC6 25088 x 4096 at %.0f%% sparsity (generated, seed 1): %zu non-zeros; best of %d\n",
                sparsity * 100, mtx.nonzeros, repeats);
    std::printf("%-22s %10s %10s %10s %14s\n", "input", "file MB", "wall s", "cpu s", "peak heap MiB");
    std::printf("%-22s %10.1f %10.3f %10.3f %14.1f\n", "JSON entries [[i,j]..]", double(js.file_bytes) / 1e6,
                js.wall_s, js.cpu_s, js.peak_mib);
    std::printf("%-22s %10.1f %10.3f %10.3f %14.1f\n", "Matrix Market .mtx", double(mtx.file_bytes) / 1e6,
                mtx.wall_s, mtx.cpu_s, mtx.peak_mib);
    std::printf("%-22s %10.2f %10.1f %10.1f %14.1f\n", "JSON / .mtx",
                double(js.file_bytes) / double(mtx.file_bytes), js.wall_s / mtx.wall_s, js.cpu_s / mtx.cpu_s,
                js.peak_mib / mtx.peak_mib);
    std::printf("same pattern: %s\n", same ? "yes" : "NO");
  }
  return same ? 0 : 1;
}
