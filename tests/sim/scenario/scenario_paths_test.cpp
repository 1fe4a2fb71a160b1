// The path-valued keys of a scenario and rebasing them between folders.
#include <catch2/catch.hpp>

#include "sim/scenario/scenario_paths.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;

TEST_CASE("every path key of a scenario is visited, zoo models are not") {
  Json doc =
      Json::parse(R"({"model": "vgg16", "platform": {"devices": [{"name": "a", "calibration": "c.json"}],
    "networks": [{"name": "n", "bandwidth": {"model": "trace", "file": "t1.txt"},
                  "uplink": {"bandwidth": {"model": "trace", "file": "t2.txt"}}}]},
    "partitioner": {"name": "plan", "file": "p.json"}, "scheduler": {"name": "x", "trace_file": "f.csv", "n": 1},
    "workload": {"kind": "single"}})");
  std::vector<std::string> seen;
  for_each_scenario_path(doc, [&](Json& p) { seen.push_back(p.get<std::string>()); });
  CHECK(seen == std::vector<std::string>{"c.json", "t1.txt", "t2.txt", "p.json", "f.csv"});
}

TEST_CASE("rebasing keeps the file a path names") {
  CHECK(rebase_path("../p.yaml", "/a/b/c", "/a") == "b/p.yaml");
  CHECK(rebase_path("x.json", "/a/b", "/a/c") == "../b/x.json");
  CHECK(rebase_path("/abs/x.json", "/a", "/b") == "/abs/x.json");
  CHECK(rebase_path("x.json", "/a/b", "") == "/a/b/x.json");  // empty target: absolute
}

TEST_CASE("a model file is rebased, a platform file too") {
  Json doc{{"model", "m.json"}, {"platform", "../p.yaml"}};
  rebase_scenario_paths(doc, "/r/s/t", "/r");
  CHECK(doc == Json{{"model", "s/t/m.json"}, {"platform", "s/p.yaml"}});
}

TEST_CASE("a key into a platform file inlines the file, its paths rebased onto the scenario's folder") {
  coinfer::test::ScratchDir dir;
  dir.write("platforms/p.yaml",
            "devices: [{name: a, calibration: calibration/a.json}]\n"
            "networks: [{name: n, kind: wifi, members: [a], rate_mbps: 10, bandwidth: {model: trace, file: "
            "t.txt}}]\n");
  Json doc{{"model", "vgg16"}, {"platform", "../platforms/p.yaml"}};
  const auto scenarios = dir.fs_path() / "scenarios";
  inline_platform_for_key(doc, "model", scenarios);  // not a platform key: nothing happens
  CHECK(doc["platform"] == "../platforms/p.yaml");
  inline_platform_for_key(doc, "platform.devices[0].time_scale", scenarios);
  REQUIRE(doc["platform"].is_object());
  CHECK(doc["platform"]["devices"][0]["calibration"] == "../platforms/calibration/a.json");
  CHECK(doc["platform"]["networks"][0]["bandwidth"]["file"] == "../platforms/t.txt");
  CHECK(doc["platform"]["networks"][0]["rate_mbps"] == 10);
}
