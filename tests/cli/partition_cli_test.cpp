// `coinfer partition` end to end, and the `plan` partitioner that replays its output.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const std::string kRoot = COINFER_SOURCE_DIR;
const std::string kQuickstart = kRoot + "/scenarios/quickstart.yaml";

// A lenet5 scenario on the shipped edge platform with the given partitioner line.
std::filesystem::path scenario(const std::string& name, const std::string& partitioner) {
  return write_text(name + ".yaml", "name: " + name + "\nmodel: lenet5\nplatform: " + kRoot +
                                        "/platforms/edge_wifi_lte.yaml\nsource: phone\n"
                                        "host_profile: {basis: estimate}\nseed: 3\npartitioner: " +
                                        partitioner + "\n");
}

}  // namespace

TEST_CASE("partition prints the tasks of a compare variant and its analytic latency") {
  const auto r = run_cli("partition " + kQuickstart + " --variant remote-lte");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("upload    transfer  phone -> server  602,112 B"));
  CHECK_THAT(r.out, Contains("critical path: upload -> infer -> download"));
  // Same figure as `coinfer run` reports as analytic_latency_ms for this variant.
  CHECK_THAT(r.out, Contains("analytic latency 909.105 ms"));
}

TEST_CASE("partition --json prints the plan JSON") {
  const auto r = run_cli("partition " + kQuickstart + " --variant remote-wifi --json");
  REQUIRE(r.exit_code == 0);
  const auto plan = json::parse(r.out);
  CHECK(plan["name"] == "remote");
  REQUIRE(plan["tasks"].size() == 3);
  CHECK(plan["tasks"][0]["bytes"] == 602112);
  CHECK(plan["tasks"][0]["network"] == "wlan");
}

TEST_CASE("a saved plan replays through the plan partitioner with the same results") {
  const auto dir = scratch_dir() / "replan";
  std::filesystem::create_directories(dir);
  const auto s = scenario("direct", "{name: remote, server: server, network: lte}");
  REQUIRE(run_cli("partition " + s.string() + " -o " + (dir / "plan.json").string()).exit_code == 0);
  REQUIRE(run_cli("run " + s.string() + " --quiet --out " + (dir / "direct").string()).exit_code == 0);
  // The plan file is relative to the scenario that names it.
  const auto replay = write_text("replan/replay.yaml",
                                 read_text(s).replace(read_text(s).find("partitioner:"), std::string::npos,
                                                      "partitioner: {name: plan, "
                                                      "file: plan.json}\n"));
  const auto r = run_cli("run " + replay.string() + " --quiet --out " + (dir / "replay").string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto a = json::parse(read_text(dir / "direct" / "results.json"));
  const auto b = json::parse(read_text(dir / "replay" / "results.json"));
  CHECK(a["latency_ms"] == b["latency_ms"]);
  CHECK(a["energy_j"] == b["energy_j"]);
  CHECK(b["partitioner"] == "plan");
}

TEST_CASE("a plan naming a device the platform lacks is reported with the plan file") {
  const auto dir = scratch_dir() / "badplan";
  std::filesystem::create_directories(dir);
  write_text(
      "badplan/p.json",
      R"({"name": "x", "tasks": [{"id": "c", "kind": "compute", "device": "tablet", "duration_s": 1}]})");
  const auto r = run_cli("partition " + write_text("badplan/s.yaml", read_text(scenario("bp",
                                                                                        "{name: plan, "
                                                                                        "file: p.json}")))
                                            .string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("p.json: tasks[0].device: unknown device 'tablet'"));
}

TEST_CASE("partition with an unknown variant lists the known labels") {
  const auto r = run_cli("partition " + kQuickstart + " --variant remote-5g");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err,
             Contains("compare: no variant labelled 'remote-5g'; known: local, remote-wifi, remote-lte"));
}
