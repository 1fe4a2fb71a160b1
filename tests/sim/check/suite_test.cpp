// The suite parser: defaults, and every error names the suite file and the key path.
#include <catch2/catch.hpp>

#include "sim/check/suite.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/yaml_json.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using namespace coinfer::check;
using Catch::Matchers::Contains;

namespace {

// Parses `yaml` as <tmp>/suite.yaml next to an (empty) s.yaml and sw.yaml.
struct SuiteFixture {
  test::TempDir dir;
  SuiteFixture() {
    dir.write("s.yaml", "name: s\n");
    dir.write("sw.yaml", "name: sw\n");
  }
  Suite parse(const std::string& yaml) const {
    const auto file = dir.path() + "/suite.yaml";
    return parse_suite(yaml_to_json(yaml, file), file);
  }
};

const char* kTiming = "a: [sleep, 0.1]\n    b: [sleep, 0.1]\n";

}  // namespace

TEST_CASE("a result check takes its defaults: quick tier, tolerance 1e-9, baselines/NAME.json") {
  SuiteFixture f;
  const auto suite = f.parse("checks:\n  - name: t1\n    scenario: s.yaml\n    metrics: [latency_ms.mean]\n");
  CHECK(suite.name == "suite");
  REQUIRE(suite.checks.size() == 1);
  const auto& c = suite.checks[0];
  CHECK(c.tier == Tier::Quick);
  CHECK(c.baseline == f.dir.path() + "/baselines/t1.json");
  REQUIRE(c.result() != nullptr);
  CHECK(c.result()->file == f.dir.path() + "/s.yaml");
  CHECK(c.result()->metrics[0].tolerance.relative == 1e-9);
  CHECK(c.result()->metrics[0].tolerance.absolute == 0.0);
}

TEST_CASE("set overrides become --set assignments with JSON values") {
  SuiteFixture f;
  const auto suite = f.parse(
      "checks:\n  - name: t\n    scenario: s.yaml\n    set: {workload.frames: 4, partitioner: {name: "
      "local}}\n"
      "    metrics: [x]\n");
  const auto& o = suite.checks[0].result()->overrides;
  CHECK(o == std::vector<std::string>{"partitioner={\"name\":\"local\"}", "workload.frames=4"});
}

TEST_CASE("a metric entry may widen the check's tolerance") {
  SuiteFixture f;
  const auto suite = f.parse(
      "checks:\n  - name: t\n    scenario: s.yaml\n    tolerance: {relative: 1.0e-6}\n"
      "    metrics: [a, {metric: b, tolerance: {absolute: 0.5}}]\n");
  const auto& m = suite.checks[0].result()->metrics;
  CHECK(m[0].tolerance.relative == 1e-6);
  CHECK(m[1].tolerance.relative == 1e-6);  // the check's, then the entry's keys over it
  CHECK(m[1].tolerance.absolute == 0.5);
  CHECK(m[1].path == "checks[0].metrics[1]");
}

TEST_CASE("a timing check takes its defaults: 9 repetitions, 10 percent, alpha 0.05, wall time") {
  SuiteFixture f;
  const auto suite = f.parse(std::string("checks:\n  - name: t\n    ") + kTiming);
  const auto* t = suite.checks[0].timing();
  REQUIRE(t != nullptr);
  CHECK(t->a == std::vector<std::string>{"sleep", "0.1"});
  CHECK(t->repetitions == 9);
  CHECK(t->warmup == 1);
  CHECK(t->threshold == 0.10);
  CHECK(t->alpha == 0.05);
  CHECK(t->measure == Measure::Wall);
  CHECK(t->better == Better::Lower);
  CHECK_FALSE(t->bound);
}

TEST_CASE("a timing check with a bound has no baseline file") {
  SuiteFixture f;
  const auto suite = f.parse(std::string("checks:\n  - name: t\n    max_ratio: 1.43\n    ") + kTiming);
  CHECK(*suite.checks[0].timing()->bound == 1.43);
  CHECK(suite.checks[0].baseline.empty());
}

TEST_CASE("an exact command check runs once, without a warm-up") {
  SuiteFixture f;
  const auto suite = f.parse(
      "checks:\n  - name: t\n    command: [x]\n    ratios: {r: '(x)'}\n    exact: true\n    max_ratio: "
      "1.1\n");
  const auto* t = suite.checks[0].timing();
  REQUIRE(t != nullptr);
  CHECK(t->exact);
  CHECK(t->repetitions == 1);
  CHECK(t->warmup == 0);
}

TEST_CASE("suite errors name the file and the key path") {
  SuiteFixture f;
  const auto fails = [&](const std::string& yaml, const std::string& path, const std::string& what) {
    INFO(yaml);
    CHECK_THROWS_WITH(f.parse(yaml), Contains("suite.yaml: " + path + ": ") && Contains(what));
  };
  const std::string c = "checks:\n  - name: t\n    ";
  fails("chekcs: []\n", "chekcs", "unknown key");
  fails("checks: []\n", "checks", "non-empty list");
  fails(c + "metrics: [x]\n", "checks[0]", "expected 'scenario', 'sweep' or 'claims'");
  fails(c + "claims: s.yaml\n    set: {a: 1}\n    metrics: [x]\n", "checks[0].set",
        "only a scenario takes overrides");
  fails(c + "scenario: s.yaml\n    a: [x]\n    b: [y]\n    metrics: [x]\n", "checks[0]", "not both");
  fails(c + "scenario: s.yaml\n    repetitions: 9\n    metrics: [x]\n", "checks[0].repetitions",
        "unknown key");
  fails(c + "scenario: nope.yaml\n    metrics: [x]\n", "checks[0].scenario", "file 'nope.yaml' not found");
  fails(c + "scenario: s.yaml\n    tier: slow\n    metrics: [x]\n", "checks[0].tier", "quick, full");
  fails(c + "scenario: s.yaml\n    metrics: []\n", "checks[0].metrics", "non-empty list");
  fails(c + "scenario: s.yaml\n    metrics: [a, 'x..y']\n", "checks[0].metrics[1]",
        "expected [LABEL/]KEY.PATH");
  fails(c + "scenario: s.yaml\n    metrics: [a, a]\n", "checks[0].metrics[1]", "listed twice");
  fails(c + "scenario: s.yaml\n    metrics: [{metric: a, tolerance: {relative: -1}}]\n",
        "checks[0].metrics[0].tolerance.relative", "expected a number");
  fails(c + "scenario: s.yaml\n    tolerance: {relatve: 1}\n    metrics: [a]\n",
        "checks[0].tolerance.relatve", "unknown key");
  fails(c + "sweep: sw.yaml\n    set: {seed: 2}\n    metrics: [a]\n", "checks[0].set",
        "only a scenario takes overrides");
  fails(c + "scenario: s.yaml\n    jobs: 2\n    metrics: [a]\n", "checks[0].jobs", "only a sweep");
  fails(c + "a: [sleep, 1]\n", "checks[0].b", "missing key");
  fails(c + "a: [sleep, true]\n    b: [x]\n", "checks[0].a[1]", "expected a string");
  fails(c + "a: []\n    b: [x]\n", "checks[0].a", "non-empty list");
  fails(c + kTiming + "    repetitions: 5\n", "checks[0].repetitions", "[9, 10000]");
  fails(c + kTiming + "    measure: gpu\n", "checks[0].measure", "wall, cpu, benchmark");
  fails(c + kTiming + "    alpha: 0.9\n", "checks[0].alpha", "expected a number");
  fails(c + kTiming + "    better: higher\n    max_ratio: 2\n", "checks[0].max_ratio", "'min_ratio'");
  fails(c + kTiming + "    max_ratio: 2\n    baseline: b.json\n", "checks[0].baseline", "not a baseline");
  fails(c + "command: [x]\n    ratios: {r: 'no group'}\n", "checks[0].ratios.r", "capturing");
  fails(c + "command: [x]\n    ratios: {r: '(['}\n", "checks[0].ratios.r", "not a valid regular expression");
  fails(c + "command: [x]\n    ratios: {r: '(x)'}\n    measure: cpu\n", "checks[0].measure",
        "from its output");
  fails(c + "command: [x]\n", "checks[0].ratios", "missing key");
  fails(c + "command: [x]\n    ratios: {r: '(x)'}\n    exact: true\n", "checks[0].exact", "'max_ratio'");
  fails(c + kTiming + "    exact: true\n    max_ratio: 2\n", "checks[0].exact", "only a 'command' check");
  fails(c + "command: [x]\n    ratios: {r: '(x)'}\n    exact: yes please\n    max_ratio: 2\n",
        "checks[0].exact", "expected");
  fails("checks:\n  - name: a/b\n    scenario: s.yaml\n    metrics: [x]\n", "checks[0].name",
        "letters, digits");
}

TEST_CASE("two checks may not share a name or a baseline file") {
  SuiteFixture f;
  const std::string one = "  - name: a\n    scenario: s.yaml\n    metrics: [x]\n";
  CHECK_THROWS_WITH(f.parse("checks:\n" + one + one),
                    Contains("checks[1].name: 'a' is already the name of checks[0]"));
  CHECK_THROWS_WITH(f.parse("checks:\n" + one +
                            "  - name: b\n    scenario: s.yaml\n    baseline: baselines/a.json\n"
                            "    metrics: [x]\n"),
                    Contains("checks[1].baseline") && Contains("already the baseline of check 'a'"));
}

TEST_CASE("the quick tier leaves full checks out and --only picks a check of any tier") {
  SuiteFixture f;
  const auto suite = f.parse(
      "checks:\n  - name: q\n    scenario: s.yaml\n    metrics: [x]\n"
      "  - name: f\n    tier: full\n    scenario: s.yaml\n    metrics: [x]\n");
  CHECK(select_checks(suite, Tier::Quick, {}).size() == 1);
  CHECK(select_checks(suite, Tier::Full, {}).size() == 2);
  const auto only = select_checks(suite, Tier::Quick, {"f"});
  REQUIRE(only.size() == 1);
  CHECK(only[0]->name == "f");
  CHECK_THROWS_WITH(select_checks(suite, Tier::Quick, {"nope"}),
                    Contains("--only: unknown check 'nope'; known: q, f"));
}
