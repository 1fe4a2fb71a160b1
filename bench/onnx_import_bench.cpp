// Importing a large ONNX file against protobuf alone parsing it, in one run.
//
// The file is torchvision's VGG-16 exported by scripts/onnx-export.py (random weights, about 528 MB):
//
//     /usr/bin/python3 scripts/onnx-export.py --out /tmp/onnx vgg16
//     ./build/bench/onnx_import_bench /tmp/onnx/vgg16.onnx [--repeats 3]
//
// Reference: onnx::ModelProto parsed by protobuf from the mapped file, nothing else.
// Measured: `import_onnx` (parse, opset check, onnx::checker, ONNX shape inference, mapping, the
// weights moved into the graph). Reported for both: wall and thread CPU time (best of the repeats)
// and the peak of live heap bytes (every operator new / delete counted), then import / parse and
// peak / file size; the targets are at most 1.5x the parse time and a peak of at most 1.5x the file.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include <fmt/format.h>

#include "bench/heap_count.hpp"
#include "sim/core/error.hpp"
#include "sim/onnx/onnx_import.hpp"
#include "sim/onnx/onnx_model_file.hpp"

using namespace coinfer;

namespace {

struct Measure {
  double wall_s = 1e300, cpu_s = 1e300, peak_mib = 0;
};

Measure measure(int repeats, const std::function<void()>& call) {
  Measure m;
  for (int r = 0; r < repeats; ++r) {
    const auto base = g_live_bytes.load();
    g_peak_bytes.store(base);
    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = thread_cpu_s();
    call();
    m.cpu_s = std::min(m.cpu_s, thread_cpu_s() - cpu0);
    m.wall_s =
        std::min(m.wall_s, std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count());
    m.peak_mib = std::max(m.peak_mib, double(g_peak_bytes.load() - base) / (1024.0 * 1024.0));
  }
  return m;
}

// The file mapped and parsed by protobuf, as import_onnx reads it (sim/onnx/onnx_model_file.cpp).
void parse_only(const std::string& file) {
  try {
    onnx_file::parse_file(file);
  } catch (const InputError& e) {
    std::fprintf(stderr, "onnx_import_bench: %s\n", e.what());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string file;
  int repeats = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeats" && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (!a.starts_with("-")) {
      file = a;
    } else {
      std::fprintf(stderr, "usage: onnx_import_bench FILE.onnx [--repeats N]\n");
      return 2;
    }
  }
  if (file.empty() || !std::filesystem::exists(file)) {
    std::fprintf(stderr,
                 "onnx_import_bench: give an ONNX file, e.g. after\n"
                 "  /usr/bin/python3 scripts/onnx-export.py --out /tmp/onnx vgg16\n"
                 "  onnx_import_bench /tmp/onnx/vgg16.onnx\n");
    return 2;
  }
  const double file_mib = double(std::filesystem::file_size(file)) / (1024.0 * 1024.0);
  std::int64_t params = 0;
  const Measure parse = measure(repeats, [&] { parse_only(file); });
  const Measure import = measure(repeats, [&] { params = coinfer::import_onnx(file).total_params(); });
  fmt::print("{}: {:.1f} MiB, {} parameters, best of {}\n", file, file_mib, params, repeats);
  fmt::print("{:<22} {:>8} {:>8} {:>10}\n", "", "wall s", "cpu s", "peak MiB");
  fmt::print("{:<22} {:>8.3f} {:>8.3f} {:>10.1f}\n", "protobuf parse", parse.wall_s, parse.cpu_s,
             parse.peak_mib);
  fmt::print("{:<22} {:>8.3f} {:>8.3f} {:>10.1f}\n", "coinfer import_onnx", import.wall_s, import.cpu_s,
             import.peak_mib);
  fmt::print(
      "import / parse: {:.2f}x CPU time (target <= 1.5x); import peak / file size: {:.2f}x (target <= "
      "1.5x)\n",
      import.cpu_s / parse.cpu_s, import.peak_mib / file_mib);
  return 0;
}
