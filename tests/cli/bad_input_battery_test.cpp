// The battery of malformed inputs: every case under tests/cli/bad_inputs/*.yaml runs the real
// `coinfer` binary on files it writes to a scratch folder and checks the promise we make to users:
// exit code 2 (or the case's `exit`), exactly one line on stderr starting `coinfer: error: `,
// holding every `error` substring, and no output file the case lists under `absent` left behind.
//
// Case file format (a YAML list):
//
//     - name: padding that overflows 64 bits         # unique within the file
//       files:                                       # written under {dir} ({root} replaced)
//         m.json: |
//           {"format": "coinfer-model/1", ...}
//       args: validate {dir}/m.json                  # {dir}: the case folder, {root}: the repo
//       error: ["m.json", "layers[1].padding", "integer out of range"]   # or one string
//       exit: 2                                      # optional, default 2
//       absent: [out/results.json]                   # optional, relative to {dir}
//
// The command runs with {dir} as its working directory.
#include <filesystem>
#include <fstream>
#include <set>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/scenario/yaml_json.hpp"
#include "tests/cli/cli_runner.hpp"

using namespace coinfer;
using namespace coinfer::testing;

namespace {

const std::filesystem::path kRoot = COINFER_SOURCE_DIR;

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (auto pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
  return s;
}

std::vector<std::string> strings_of(const Json& v) {
  if (v.is_string()) return {v.get<std::string>()};
  std::vector<std::string> out;
  for (const auto& s : v) out.push_back(s.get<std::string>());
  return out;
}

std::vector<std::filesystem::path> case_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(kRoot / "tests/cli/bad_inputs"))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Runs one case; returns a description of what went wrong, or "" when it behaved.
std::string run_case(const Json& c, const std::filesystem::path& dir) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (c.contains("files"))
    for (const auto& [name, text] : c["files"].items()) {
      std::filesystem::create_directories((dir / name).parent_path());
      std::ofstream(dir / name) << replace_all(text.get<std::string>(), "{root}", kRoot.string());
    }
  const auto args =
      replace_all(replace_all(c["args"].get<std::string>(), "{dir}", dir.string()), "{root}", kRoot.string());
  const auto r = run_cli_in(dir, args);
  const int expected_exit = c.value("exit", 2);
  std::string problems;
  if (r.exit_code != expected_exit)
    problems +=
        "exit code " + std::to_string(r.exit_code) + ", expected " + std::to_string(expected_exit) + "; ";
  const auto lines = std::count(r.err.begin(), r.err.end(), '\n');
  if (lines != 1 || !r.err.starts_with("coinfer: error: "))
    problems += "stderr is not one 'coinfer: error:' line; ";
  for (const auto& want : strings_of(c["error"]))
    if (r.err.find(want) == std::string::npos) problems += "stderr lacks '" + want + "'; ";
  if (c.contains("absent"))
    for (const auto& p : strings_of(c["absent"]))
      if (std::filesystem::exists(dir / p)) problems += "'" + p + "' was left behind; ";
  return problems.empty() ? "" : problems + "stderr was: " + r.err;
}

// Every case of one file; a test case per file, so that CTest runs the files in parallel, each
// within its own time limit (the whole battery under AddressSanitizer took minutes).
void run_file(const std::string& stem) {
  const auto file = kRoot / "tests/cli/bad_inputs" / (stem + ".yaml");
  const Json doc = read_yaml_file(file.string());
  REQUIRE(doc.is_array());
  REQUIRE(!doc.empty());
  std::set<std::string> names;
  for (const auto& c : doc) {
    const auto name = c.at("name").get<std::string>();
    REQUIRE(names.insert(name).second);  // names are unique within a file
    const auto dir = scratch_dir() / "battery" / stem / std::to_string(names.size());
    INFO(file.filename().string() << ": " << name);
    CHECK(run_case(c, dir) == "");
  }
}

const std::vector<std::string> kFiles = {
    "adalearner", "bandwidth_traces", "cbo_run",    "check",     "claims", "cli",     "components",
    "fuzz",       "jointdnn",         "make_trace", "mobieye",   "mtx",    "numbers", "onnx",
    "pipeline",   "populations",      "profiles",   "scenarios", "sweeps", "traces",  "train"};

}  // namespace

TEST_CASE("battery: every case file under tests/cli/bad_inputs has its test case below") {
  std::vector<std::string> stems;
  for (const auto& f : case_files()) stems.push_back(f.stem().string());
  CHECK(stems == kFiles);
}

#define BATTERY_FILE(stem)                                                                            \
  TEST_CASE("battery: every malformed input of " #stem ".yaml is one clear error line with exit 2") { \
    run_file(#stem);                                                                                  \
  }

BATTERY_FILE(adalearner)
BATTERY_FILE(bandwidth_traces)
BATTERY_FILE(cbo_run)
BATTERY_FILE(check)
BATTERY_FILE(claims)
BATTERY_FILE(cli)
BATTERY_FILE(components)
BATTERY_FILE(fuzz)
BATTERY_FILE(jointdnn)
BATTERY_FILE(make_trace)
BATTERY_FILE(mobieye)
BATTERY_FILE(mtx)
BATTERY_FILE(numbers)
BATTERY_FILE(onnx)
BATTERY_FILE(pipeline)
BATTERY_FILE(populations)
BATTERY_FILE(profiles)
BATTERY_FILE(scenarios)
BATTERY_FILE(sweeps)
BATTERY_FILE(traces)
BATTERY_FILE(train)
