// `coinfer models`, `model show`, `model export`, `validate` and their errors, through the binary.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const char* kTiny = R"({"name": "tiny", "layers": [
  {"name": "data", "op": "input", "shape": [3, 8, 8]},
  {"name": "conv", "op": "conv2d", "inputs": ["data"], "out_channels": 4, "kernel": 3, "padding": 1},
  {"name": "relu", "op": "relu", "inputs": ["conv"]},
  {"name": "sum", "op": "add", "inputs": ["conv", "relu"]}]})";

// Writes `text` to a model file, validates it, and expects one error line naming `expected`.
void expect_rejected(const std::string& file_name, const std::string& text, const std::string& expected) {
  const auto path = write_text(file_name, text);
  const auto r = run_cli("validate " + path.string());
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, StartsWith("coinfer: error: " + path.string() + ": ") && Contains(expected));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

std::string with(const std::string& from, const std::string& to) {
  std::string s = kTiny;
  s.replace(s.find(from), from.size(), to);
  return s;
}

}  // namespace

TEST_CASE("coinfer --version prints the version") {
  const auto r = run_cli("--version");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, StartsWith("coinfer "));
}

TEST_CASE("models lists the zoo with parameter counts") {
  const auto r = run_cli("models");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("vgg16") && Contains("138,357,544"));
}

TEST_CASE("model show --json has exactly the documented keys") {
  const auto r = run_cli("model show lenet5 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.size() == 5);
  CHECK(j["name"] == "lenet5");
  CHECK(j["input"] == nlohmann::json::array({1, 32, 32}));
  CHECK(j["total_params"] == 61706);
  const auto& layer = j["layers"][1];
  CHECK(layer.size() == 7);
  CHECK(layer["name"] == "conv1");
  CHECK(layer["op"] == "conv2d");
  CHECK(layer["inputs"] == nlohmann::json::array({"data"}));
  CHECK(layer["output_shape"] == nlohmann::json::array({6, 28, 28}));
  CHECK(layer["params"] == 156);   // 6*1*5*5 + 6
  CHECK(layer["macs"] == 117600);  // 6*28*28 * 25
  CHECK(layer["output_bytes"] == 18816);
}

TEST_CASE("model export output loads back as the same model") {
  const auto exported = run_cli("model export vgg16");
  REQUIRE(exported.exit_code == 0);
  const auto path = write_text("vgg16.json", exported.out);
  const auto shown = run_cli("model show " + path.string() + " --json");
  const auto zoo = run_cli("model show vgg16 --json");
  CHECK(shown.exit_code == 0);
  CHECK(shown.out == zoo.out);
}

TEST_CASE("validate accepts a well-formed model") {
  const auto r = run_cli("validate " + write_text("ok.json", kTiny).string());
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("ok"));
}

TEST_CASE("validate rejects a cycle") {
  expect_rejected("cycle.json", with(R"("inputs": ["data"])", R"("inputs": ["relu"])"),
                  "cycle through layers");
}

TEST_CASE("validate rejects an unknown input") {
  expect_rejected("unknown.json", with(R"("inputs": ["conv"]})", R"("inputs": ["cnv"]})"),
                  "layers[2].inputs[0]: layer 'relu': unknown input 'cnv'");
}

TEST_CASE("validate rejects a bad stride") {
  expect_rejected("stride.json", with(R"("padding": 1)", R"("padding": 1, "stride": [1, 2, 3])"),
                  "layers[1].stride: expected 1 or 2 integers");
}

TEST_CASE("validate rejects negative channels") {
  expect_rejected("channels.json", with(R"("out_channels": 4)", R"("out_channels": -4)"),
                  "layers[1].out_channels: expected an integer >= 1, got -4");
}

TEST_CASE("validate rejects a missing key") {
  expect_rejected("missing.json", with(R"("op": "relu", )", ""), "layers[2].op: missing key");
}

TEST_CASE("validate rejects a wrong type") {
  expect_rejected("type.json", with(R"("shape": [3, 8, 8])", R"("shape": "3x8x8")"),
                  "layers[0].shape: expected an array");
}

TEST_CASE("validate rejects a shape mismatch at add") {
  expect_rejected("add.json", with(R"("inputs": ["conv", "relu"])", R"("inputs": ["data", "relu"])"),
                  "add inputs have different shapes");
}

TEST_CASE("validate rejects a shape mismatch at concat") {
  std::string s = with(R"("op": "add")", R"("op": "concat", "axis": 1)");
  s = s.replace(s.find(R"("inputs": ["conv", "relu"])"), 26, R"("inputs": ["data", "relu"])");
  expect_rejected("concat.json", s, "concat inputs differ outside axis 1");
}

TEST_CASE("validate rejects a file that is not JSON") {
  expect_rejected("broken.json", "{\"name\": \"x\", \"layers\": [", "not valid JSON");
}

TEST_CASE("validate rejects a missing file") {
  const auto r = run_cli("validate /nonexistent/model.json");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("/nonexistent/model.json: cannot open file"));
}

TEST_CASE("an unknown zoo model lists the known ones") {
  const auto r = run_cli("model show vgg61");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("unknown model 'vgg61'") && Contains("vgg16"));
}
