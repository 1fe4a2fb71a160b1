// `coinfer run` with compare variants and traces: --set reaches every variant, errors name the
// variant and leave no partial comparison, --trace records (one file per variant).
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const std::string kRoot = COINFER_SOURCE_DIR;

std::filesystem::path compare_scenario(const std::string& name, const std::string& variants) {
  return write_text(name + ".yaml", "name: " + name + "\nmodel: lenet5\nplatform: " + kRoot +
                                        "/platforms/edge_wifi_lte.yaml\nsource: phone\n"
                                        "host_profile: {basis: estimate}\npartitioner: {name: local}\n"
                                        "workload: {kind: stream, rate_fps: 5, frames: 3}\ncompare:\n" +
                                        variants);
}

const std::string kTwoVariants =
    "  - {label: here, set: {partitioner: {name: local}}}\n"
    "  - {label: lte, set: {partitioner: {name: remote, server: server, network: lte}}}\n";

}  // namespace

TEST_CASE("a --set applies to every compare variant, after the variant's own set") {
  const auto s = compare_scenario("setall", kTwoVariants);
  const auto out = scratch_dir() / "setall";
  std::filesystem::remove_all(out);
  const auto r = run_cli("run " + s.string() + " --set workload.frames=4 --out " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  for (const char* label : {"here", "lte"})
    CHECK(json::parse(read_text(out / label / "results.json"))["frames"] == 4);
}

TEST_CASE("a --set of a key a variant overrides is applied, not ignored, and its error names the variant") {
  const auto s = compare_scenario("setname", kTwoVariants);
  const auto r = run_cli("run " + s.string() + " --set partitioner.name=nosuch --out " +
                         (scratch_dir() / "setname").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(
      r.err,
      Contains("setname.yaml: compare variant 'here': partitioner.name: unknown partitioner 'nosuch'"));
}

TEST_CASE("a variant that fails leaves no results of the variants before it") {
  // The second variant names a network the platform lacks: only the partitioner finds out.
  const auto s = compare_scenario("halfway",
                                  "  - {label: here, set: {partitioner: {name: local}}}\n"
                                  "  - {label: bad, set: {partitioner: {name: remote, network: nope}}}\n");
  const auto out = scratch_dir() / "halfway";
  std::filesystem::remove_all(out);
  const auto r = run_cli("run " + s.string() + " --out " + out.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("compare variant 'bad'"));
  CHECK_FALSE(std::filesystem::exists(out / "here" / "results.json"));
  CHECK((!std::filesystem::exists(out) || std::filesystem::is_empty(out)));
}

TEST_CASE("a --trace alone records a trace with events") {
  const auto s =
      write_text("traced.yaml", "name: traced\nmodel: lenet5\nplatform: " + kRoot +
                                    "/platforms/edge_wifi_lte.yaml\nhost_profile: {basis: estimate}\n"
                                    "partitioner: {name: remote, server: server, network: lte}\n");
  const auto trace = scratch_dir() / "traced.json";
  const auto r = run_cli("run " + s.string() + " --out " + (scratch_dir() / "traced").string() + " --trace " +
                         trace.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = json::parse(read_text(trace));
  CHECK(j["traceEvents"].size() >= 3);  // upload, infer, download at least
  CHECK_THAT(r.out, Contains("trace: " + trace.string()));
}

TEST_CASE("a --trace with compare variants writes one named trace per variant") {
  const auto s = compare_scenario("traces", kTwoVariants);
  const auto trace = scratch_dir() / "cmp.json";
  const auto r = run_cli("run " + s.string() + " --out " + (scratch_dir() / "traces").string() + " --trace " +
                         trace.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  for (const char* label : {"here", "lte"}) {
    const auto file = scratch_dir() / (std::string("cmp.") + label + ".json");
    CHECK_THAT(r.out, Contains("trace: " + file.string()));
    CHECK_FALSE(json::parse(read_text(file))["traceEvents"].empty());
  }
}

TEST_CASE("results.json records the scenario as it ran, with the parameters' defaults filled") {
  const auto platform =
      std::filesystem::path(kRoot + "/platforms/edge_wifi_lte.yaml").lexically_relative(scratch_dir());
  const auto s = write_text("resolved.yaml", "name: resolved\nmodel: lenet5\nplatform: " + platform.string() +
                                                 "\nhost_profile: {basis: estimate}\npartitioner: remote\n");
  const auto out = scratch_dir() / "resolved";
  REQUIRE(run_cli("run " + s.string() + " --out " + out.string()).exit_code == 0);
  const auto r = json::parse(read_text(out / "results.json"))["resolved_scenario"];
  CHECK(r["partitioner"]["name"] == "remote");
  CHECK(r["partitioner"].contains("server"));  // declared parameters appear even when not given
  CHECK(r["scheduler"]["name"] == "none");
  CHECK(r["source"] == "phone");  // the platform's first device
  CHECK(r["workload"]["kind"] == "single");
  CHECK(std::filesystem::path(r["platform"].get<std::string>()).is_absolute());
  CHECK(std::filesystem::exists(r["platform"].get<std::string>()));
}
