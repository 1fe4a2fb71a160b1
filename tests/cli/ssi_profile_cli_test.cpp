// `coinfer ssi-profile`: the CSV it writes and its input errors.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Contains;

namespace {

// conv1 3x3 (4x10x10), conv2 3x3/2 (6x5x5), conv3 1x1 (2x5x5): SSI from group 2 runs conv2 and conv3.
std::string small_model() {
  return write_text("small.json", R"({"format": "coinfer-model/1", "name": "small", "layers": [
    {"name": "data", "op": "input", "shape": [3, 10, 10]},
    {"name": "conv1", "op": "conv2d", "inputs": ["data"], "out_channels": 4, "kernel": 3, "padding": 1},
    {"name": "conv2", "op": "conv2d", "inputs": ["conv1"], "out_channels": 6, "kernel": 3, "stride": 2, "padding": 1},
    {"name": "conv3", "op": "conv2d", "inputs": ["conv2"], "out_channels": 2, "kernel": 1}]})")
      .string();
}

}  // namespace

TEST_CASE("ssi-profile writes comment lines, then density,dense_ms,ssi_ms,time_ratio per density") {
  const auto csv = scratch_dir() / "ssi.csv";
  const auto r = run_cli("ssi-profile --model " + small_model() +
                         " --from-group 2 --densities 0.5,1 --repeats 1 -o " + csv.string());
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("model small: SSI on 2 conv layers from conv2 on"));
  std::istringstream in(read_text(csv));
  std::string line;
  std::vector<std::string> data;
  bool command_named = false;
  while (std::getline(in, line)) {
    if (line.starts_with("#")) {
      command_named = command_named || line.starts_with("# coinfer ssi-profile --model");
      continue;
    }
    data.push_back(line);
  }
  CHECK(command_named);
  REQUIRE(data.size() == 3);
  CHECK(data[0] == "density,dense_ms,ssi_ms,time_ratio");
  CHECK(data[1].starts_with("0.5,"));
  CHECK(data[2].starts_with("1,"));
}

TEST_CASE("ssi-profile names --from-group when the model has no such conv group") {
  const auto r = run_cli("ssi-profile --model " + small_model() + " --from-group 5 -o " +
                         (scratch_dir() / "x.csv").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--from-group") && Contains("has no layer 'conv5'"));
}

TEST_CASE("ssi-profile rejects a density of 0 under --densities") {
  const auto r = run_cli("ssi-profile --model " + small_model() + " --densities 0.5,0 -o " +
                         (scratch_dir() / "x.csv").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--densities") && Contains("(0, 1]"));
}

TEST_CASE("ssi-profile into a folder that is a file is an error naming the CSV, and writes nothing") {
  const auto blocker = scratch_dir() / "taken";
  std::ofstream(blocker) << "a file";
  const auto csv = blocker / "ssi.csv";
  const auto r = run_cli("ssi-profile --model " + small_model() +
                         " --from-group 2 --densities 1 --repeats 1 -o " + csv.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains(csv.string() + ": cannot write the file"));
  CHECK(std::filesystem::is_regular_file(blocker));
  for (const auto& entry : std::filesystem::directory_iterator(scratch_dir()))
    CHECK(entry.path().filename().string().find(".tmp") == std::string::npos);
}
