// `coinfer check` on a scenario with a `report:` block: the report's rows are the run `report`
// of the check (title, source, each row's name, ours and paper), which docs/systems renders from.
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;

namespace {

const std::filesystem::path kRoot = COINFER_SOURCE_DIR;

std::filesystem::path fresh(const std::string& name) { return fresh_dir("check_report_" + name); }

// LeNet-5 run locally under two labels, `first` and `label2`; one report row reads `first`'s
// latency beside a paper value.
void write_scenario(const std::filesystem::path& dir, const std::string& label2, int paper_ms) {
  std::ofstream(dir / "s.yaml") << "name: s\nmodel: lenet5\nplatform: "
                                << (kRoot / "platforms/edge_wifi_lte.yaml").string()
                                << "\nsource: phone\nhost_profile: {basis: estimate}\n"
                                   "partitioner: {name: local}\nworkload: {kind: single}\nseed: 1\n"
                                   "compare:\n  - {label: first, set: {partitioner: {name: local}}}\n"
                                   "  - {label: "
                                << label2
                                << ", set: {partitioner: {name: local}}}\n"
                                   "report:\n  title: T\n  source: '[MoDNN] Table 1'\n  rows:\n"
                                   "    - {name: local ms, run: first, metric: latency_ms.mean, paper: "
                                << paper_ms << "}\n";
  std::ofstream(dir / "suite.yaml")
      << "name: docs\nchecks:\n  - name: r\n    scenario: s.yaml\n    metrics: [first/latency_ms.mean, "
         "report/title, report/source, 'report/rows.*.name', 'report/rows.*.ours', 'report/rows.*.paper']\n";
}

CliResult check_in(const std::filesystem::path& dir, const std::string& args) {
  return run_cli_in(dir, "check suite.yaml " + args);
}

}  // namespace

TEST_CASE("check: a report's rows are recorded as the run 'report', ours equal to the run's metric") {
  const auto dir = fresh("record");
  write_scenario(dir, "second", 2);
  const auto r = check_in(dir, "--update");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto m = nlohmann::json::parse(read_text(dir / "baselines/r.json")).at("metrics");
  CHECK(m.at("report/title") == "T");
  CHECK(m.at("report/source") == "[MoDNN] Table 1");
  CHECK(m.at("report/rows.0.name") == "local ms");
  CHECK(m.at("report/rows.0.paper") == 2);
  // A `value` row without `scale` is the run's metric itself: first/latency_ms.mean.
  CHECK(m.at("report/rows.0.ours").get<double>() == m.at("first/latency_ms.mean").get<double>());
}

TEST_CASE("check: a changed paper value in the report fails the check") {
  const auto dir = fresh("paper");
  write_scenario(dir, "second", 2);
  REQUIRE(check_in(dir, "--update").exit_code == 0);
  write_scenario(dir, "second", 3);
  const auto r = check_in(dir, "");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Contains("report/rows.0.paper") && Contains("REGRESSION"));
}

TEST_CASE("check: a compare label 'report' beside a report block is bad input") {
  const auto dir = fresh("clash");
  write_scenario(dir, "report", 2);
  const auto r = check_in(dir, "--update");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("label 'report' is reserved for the report's rows"));
}
