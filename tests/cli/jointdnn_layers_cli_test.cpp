// The JointDNN problem's group tables grow with the square of the layer count: a model too long
// for them is refused before they are allocated, with one error line naming the partitioner key.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include <fmt/format.h>
#include <unistd.h>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;

namespace {

// A chain of `layers` layers: an input of 16 values, then relu after relu (each reads the one
// before, so the problem has layers - 1 layers after the input and no skips).
std::filesystem::path relu_chain(const std::filesystem::path& dir, int layers) {
  const auto file = dir / "chain.json";
  std::ofstream out(file);
  out << R"({"format": "coinfer-model/1", "name": "chain", "layers": [)"
      << R"({"name": "l0", "op": "input", "shape": [16]})";
  for (int i = 1; i < layers; ++i)
    out << ",\n"
        << R"({"name": "l)" << i << R"(", "op": "relu", "inputs": ["l)" << i - 1 << R"("]})";
  out << "]}\n";
  return file;
}

}  // namespace

TEST_CASE("jointdnn refuses a model whose group tables exceed this host's memory, before allocating") {
  // L problem layers need 12 L (L + 1) bytes of group tables (L (L + 1) / 2 groups x 3 doubles x 8
  // bytes); L = sqrt(memory / 12) + 1000 is just past this host's memory (about 45,000 layers on a
  // 24 GB host), so the model is refused whatever the host, before the tables exist.
  const double memory = double(::sysconf(_SC_PHYS_PAGES)) * double(::sysconf(_SC_PAGE_SIZE));
  const auto problem_layers = static_cast<int>(std::sqrt(memory / 12.0)) + 1000;
  const auto dir = scratch_dir() / "jointdnn_layers";
  std::filesystem::create_directories(dir);
  relu_chain(dir, problem_layers + 1);  // the input is not a problem layer
  std::ofstream(dir / "s.yaml") << "model: chain.json\n"
                                << "platform: " << COINFER_SOURCE_DIR << "/platforms/jointdnn_tx2_k40.yaml\n"
                                << "host_profile: {basis: estimate}\n"
                                << "partitioner: jointdnn\n";
  const auto r = run_cli_in(dir, "run s.yaml --out out");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("s.yaml: partitioner.name: the JointDNN problem") &&
                        Contains(fmt::format("model 'chain' gives {} layers", problem_layers)) &&
                        Contains("more than this host's memory"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_FALSE(std::filesystem::exists(dir / "out" / "results.json"));
}
