// YAML -> JSON conversion: scalar typing, nesting, and located syntax errors.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/scenario/yaml_json.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

TEST_CASE("plain scalars are typed by the YAML 1.2 core schema") {
  const Json j = yaml_to_json("a: 4\nb: 2.5e6\nc: true\nd: ~\ne: lte\nf: -3\ng: .5\n", "x.yaml");
  CHECK(j["a"] == 4);
  CHECK(j["a"].is_number_integer());
  CHECK(j["b"] == 2.5e6);
  CHECK(j["c"] == true);
  CHECK(j["d"].is_null());
  CHECK(j["e"] == "lte");
  CHECK(j["f"] == -3);
  CHECK(j["g"] == 0.5);
}

TEST_CASE("quoted scalars stay strings") {
  const Json j = yaml_to_json("a: \"4\"\nb: 'true'\n", "x.yaml");
  CHECK(j["a"] == "4");
  CHECK(j["b"] == "true");
}

TEST_CASE("sequences and mappings nest") {
  const Json j =
      yaml_to_json("devices:\n  - {name: phone, role: go}\n  - name: server\nrates: [1, 2]\n", "x.yaml");
  CHECK(j["devices"][0]["role"] == "go");
  CHECK(j["devices"][1]["name"] == "server");
  CHECK(j["rates"] == Json::array({1, 2}));
}

TEST_CASE("malformed YAML names the file, line and column") {
  try {
    yaml_to_json("a: [1, 2\nb: 3\n", "bad.yaml");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Contains("bad.yaml: line ") && Contains("malformed YAML"));
  }
}

TEST_CASE("a duplicate key is an error") {
  CHECK_THROWS_WITH(yaml_to_json("a: 1\na: 2\n", "dup.yaml"),
                    Contains("dup.yaml: line 2") && Contains("duplicate key 'a'"));
}

TEST_CASE("a missing YAML file is reported") {
  CHECK_THROWS_WITH(read_yaml_file("/nonexistent/s.yaml"), Contains("/nonexistent/s.yaml: cannot open file"));
}
