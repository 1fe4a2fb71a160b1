// Reading torch.profiler Chrome traces. The three fixtures are real traces of the tiny CNN in
// tests/fixtures/profiles/make_torch_fixtures.py; every expected row is computed here from the
// file's events (dur in microseconds / 1000 = ms), by the model's known layer sequence rather
// than by the reader's nesting rules.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/calibration/profile_import.hpp"
#include "sim/core/error.hpp"
#include "tests/sim/calibration/profile_test_support.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

const std::string& kFixtures = test::kProfileFixtures;
// The layers make_torch_fixtures.py annotates, in order, and the aten op each one calls.
const std::vector<std::string> kLayers{"conv1", "relu1", "pool1", "conv2", "relu2", "pool2", "flatten", "fc"};
const std::vector<std::string> kOps{"aten::conv2d", "aten::relu",       "aten::max_pool2d", "aten::conv2d",
                                    "aten::relu",   "aten::max_pool2d", "aten::flatten",    "aten::linear"};

nlohmann::json events_of(const std::string& fixture) {
  std::ifstream in(kFixtures + fixture);
  return nlohmann::json::parse(in);  // the legacy layout: a bare array of events
}

// The 0-based index of the first event named `name` at or after `from`.
std::size_t find_event(const nlohmann::json& events, const std::string& name, std::size_t from) {
  for (std::size_t i = from; i < events.size(); ++i)
    if (events[i]["name"] == name) return i;
  FAIL("no event " << name << " after " << from);
  return 0;
}

// Checks `p`'s rows against events `index[k]` of `events`: names, dur / 1000, 1-based lines.
void check_rows(const Profile& p, const nlohmann::json& events, const std::vector<std::string>& names,
                const std::vector<std::size_t>& index) {
  REQUIRE(p.rows.size() == names.size());
  for (std::size_t k = 0; k < names.size(); ++k) {
    INFO(names[k]);
    CHECK(p.rows[k].name == names[k]);
    CHECK(p.rows[k].ms == Approx(events[index[k]]["dur"].get<double>() / 1000.0));
    CHECK(p.rows[k].line == static_cast<int>(index[k]) + 1);
  }
}

InputError trace_error(const std::string& text) {
  return test::profile_error(text, ProfileFormat::TorchTrace, "t.json");
}

}  // namespace

TEST_CASE("torch-trace: record_function ranges are the rows, each typed by its longest op") {
  // Each layer's annotation is the first event with its name after the previous layer's.
  const auto events = events_of("torch_annotated.json");
  std::vector<std::size_t> index;
  for (const auto& layer : kLayers)
    index.push_back(find_event(events, layer, index.empty() ? 0 : index.back() + 1));
  const Profile p = read_profile(kFixtures + "torch_annotated.json", ProfileFormat::TorchTrace);
  check_rows(p, events, kLayers, index);
  // inside conv1 the trace has aten::empty (0 us, from record_function) before aten::conv2d
  for (std::size_t k = 0; k < kLayers.size(); ++k) CHECK(p.rows[k].op_type == kOps[k]);
}

TEST_CASE("torch-trace: without annotations the top-level aten ops are the rows") {
  // The model calls kOps in order; each is the first event with its name after the previous one.
  // Nested ops (aten::convolution, aten::clamp_min inside aten::relu, aten::addmm inside
  // aten::linear) are not rows; in this file the second aten::clamp_min (ts 294, 2 us) ends a
  // microsecond after its aten::relu (ts 293, 2 us): whole-microsecond rounding, still nested.
  const auto events = events_of("torch_ops.json");
  std::vector<std::size_t> index;
  for (const auto& op : kOps) index.push_back(find_event(events, op, index.empty() ? 0 : index.back() + 1));
  const Profile p = read_profile(kFixtures + "torch_ops.json", ProfileFormat::TorchTrace);
  check_rows(p, events, kOps, index);
  for (const auto& row : p.rows) CHECK(row.op_type == row.name);
}

TEST_CASE("torch-trace: a trace of several steps gives each layer's mean over the steps") {
  // 3 active steps, each running kLayers once: the k-th row is the mean of the 3 events named
  // kLayers[k], its line the first one's; ProfilerStep#1..3 are not rows.
  const auto events = events_of("torch_steps.json");
  std::map<std::string, std::vector<std::size_t>> by_name;
  for (std::size_t i = 0; i < events.size(); ++i) by_name[events[i]["name"]].push_back(i);
  REQUIRE(by_name["ProfilerStep#3"].size() == 1);
  const Profile p = read_profile(kFixtures + "torch_steps.json", ProfileFormat::TorchTrace);
  REQUIRE(p.rows.size() == kLayers.size());
  for (std::size_t k = 0; k < kLayers.size(); ++k) {
    const auto& at = by_name[kLayers[k]];
    REQUIRE(at.size() == 3);
    double sum_us = 0.0;
    for (const std::size_t i : at) sum_us += events[i]["dur"].get<double>();
    CHECK(p.rows[k].name == kLayers[k]);
    CHECK(p.rows[k].ms == Approx(sum_us / 3.0 / 1000.0));
    CHECK(p.rows[k].line == static_cast<int>(at[0]) + 1);
    CHECK(p.rows[k].op_type == kOps[k]);
  }
}

TEST_CASE("torch-trace: the Kineto layout reads cpu_op and user_annotation, nothing else") {
  // traceEvents[0] is metadata, [3] a GPU kernel, [4] a python_function: not rows.
  // Annotations exist (conv1, fc), so they are the rows: 40 us and 12.5 us.
  const std::string trace = R"({"schemaVersion": 1, "traceEvents": [
    {"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "python"}},
    {"ph": "X", "cat": "user_annotation", "name": "conv1", "pid": 7, "tid": 7, "ts": 100, "dur": 40},
    {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 7, "tid": 7, "ts": 102, "dur": 36},
    {"ph": "X", "cat": "kernel", "name": "implicit_gemm", "pid": 0, "tid": 7, "ts": 110, "dur": 20},
    {"ph": "X", "cat": "python_function", "name": "nn.Module: Conv2d", "pid": 7, "tid": 7, "ts": 101, "dur": 38},
    {"ph": "X", "cat": "user_annotation", "name": "fc", "pid": 7, "tid": 7, "ts": 150, "dur": 12.5},
    {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 7, "tid": 7, "ts": 151, "dur": 11}]})";
  const Profile p = parse_profile(trace, "t.json", ProfileFormat::TorchTrace);
  REQUIRE(p.rows.size() == 2);
  CHECK(p.rows[0].name == "conv1");
  CHECK(p.rows[0].op_type == "aten::conv2d");
  CHECK(p.rows[0].ms == Approx(0.040));
  CHECK(p.rows[0].line == 2);
  CHECK(p.rows[1].name == "fc");
  CHECK(p.rows[1].ms == Approx(0.0125));
}

TEST_CASE("torch-trace: top-level ops are judged per thread") {
  // aten::mm on thread 2 starts inside thread 1's aten::conv2d but is not nested in it: 3 rows
  const std::string trace = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 1, "tid": 1, "ts": 0, "dur": 50},
    {"ph": "X", "cat": "cpu_op", "name": "aten::convolution", "pid": 1, "tid": 1, "ts": 1, "dur": 48},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 2, "ts": 10, "dur": 5},
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 60, "dur": 4}]})";
  const Profile p = parse_profile(trace, "t.json", ProfileFormat::TorchTrace);
  REQUIRE(p.rows.size() == 3);
  CHECK(p.rows[0].name == "aten::conv2d");
  CHECK(p.rows[1].name == "aten::mm");
  CHECK(p.rows[2].name == "aten::relu");
}

TEST_CASE("torch-trace: a JSON object without traceEvents is not a Chrome trace") {
  const InputError e = trace_error(R"({"layers": [{"name": "conv1", "ms": 2}]})");
  CHECK(e.file() == "t.json");
  CHECK_THAT(e.message(), Contains("not a Chrome trace") && Contains("traceEvents"));
}

TEST_CASE("torch-trace: text that is not JSON is refused as such") {
  CHECK_THAT(trace_error("layer,ms\nconv1,2\n").message(), Contains("not valid JSON"));
}

TEST_CASE("torch-trace: a trace with only kernels and metadata has no rows") {
  const InputError e = trace_error(R"({"traceEvents": [
    {"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "python"}},
    {"ph": "X", "cat": "kernel", "name": "sgemm", "pid": 0, "tid": 7, "ts": 0, "dur": 20}]})");
  CHECK(e.path() == "traceEvents");
  CHECK_THAT(e.message(), Contains("no rows"));
}

TEST_CASE("torch-trace: a complete event without a numeric dur names the event") {
  const InputError e = trace_error(R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 0, "tid": 1, "ts": 0, "dur": 3},
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 0, "tid": 1, "ts": 5, "dur": "4"}]})");
  CHECK(e.file() == "t.json");
  CHECK_THAT(e.path(), Contains("traceEvents[1]"));
}

TEST_CASE("torch-trace: a row lasting 0 us is refused at its event") {
  const InputError e = trace_error(R"([
    {"name": "conv1", "ph": "X", "ts": 0, "dur": 5, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "flatten", "ph": "X", "ts": 6, "dur": 0, "tid": 1, "pid": "CPU functions", "args": {}}])");
  CHECK(e.path() == "traceEvents[1]");
  CHECK_THAT(e.message(), Contains("'flatten'") && Contains("> 0"));
}

TEST_CASE("torch-trace: steps that run different layers are refused, naming both") {
  // step 2 lacks relu1
  const InputError e = trace_error(R"([
    {"name": "ProfilerStep#1", "ph": "X", "ts": 0, "dur": 100, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "conv1", "ph": "X", "ts": 1, "dur": 50, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "relu1", "ph": "X", "ts": 60, "dur": 5, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "ProfilerStep#2", "ph": "X", "ts": 100, "dur": 100, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "conv1", "ph": "X", "ts": 101, "dur": 48, "tid": 1, "pid": "CPU functions", "args": {}}])");
  CHECK(e.path() == "traceEvents[3]");
  CHECK_THAT(e.message(),
             Contains("ProfilerStep#2 holds [conv1]") && Contains("ProfilerStep#1 holds [conv1, relu1]"));
}
