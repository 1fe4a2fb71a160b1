// The path-valued keys of a scenario and rebasing them between folders.
#include <catch2/catch.hpp>

#include "sim/scenario/scenario_paths.hpp"

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
