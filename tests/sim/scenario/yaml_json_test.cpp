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

TEST_CASE("a number beyond double names the file and its key path") {
  CHECK_THROWS_WITH(yaml_to_json("name: s\nworkload: {kind: stream, deadline_s: 1e400}\n", "s.yaml"),
                    "s.yaml: workload.deadline_s: number out of range (1e400)");
}

TEST_CASE("a number beyond double in a sequence names its index") {
  CHECK_THROWS_WITH(yaml_to_json("devices:\n  - {name: a}\n  - {rates: [1, -1e999]}\n", "p.yaml"),
                    "p.yaml: devices[1].rates[1]: number out of range (-1e999)");
}

TEST_CASE("a lone scalar beyond double (a --set value) has no key path") {
  // `--set workload.deadline_s=1e400` converts "1e400" with the file label "--set workload.deadline_s"
  CHECK_THROWS_WITH(yaml_to_json("1e400", "--set workload.deadline_s"),
                    "--set workload.deadline_s: number out of range (1e400)");
}

TEST_CASE("an integer beyond int64 becomes a float, as in JSON") {
  // 2^70: json_as_int then reports "integer out of range" where an integer is expected
  const Json j = yaml_to_json("frames: 1180591620717411303424\n", "s.yaml");
  CHECK(j["frames"].is_number_float());
  CHECK_THROWS_WITH(json_int(j, "frames", "workload"), Contains("workload.frames: integer out of range"));
}

TEST_CASE("deep nesting is 'nested too deeply', from yaml-cpp's own guard or ours") {
  // yaml-cpp stops at about 500 levels with "bad file"; between 257 and 500 our converter stops
  for (const std::size_t depth : {std::size_t{100000}, std::size_t{300}}) {
    const std::string text = std::string(depth, '[') + std::string(depth, ']');
    CHECK_THROWS_WITH(yaml_to_json(text, "deep.yaml"), Contains("deep.yaml: nested too deeply"));
  }
}

TEST_CASE("nesting up to kMaxJsonDepth levels converts") {
  const std::string text = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  CHECK_NOTHROW(yaml_to_json(text, "ok.yaml"));
}

TEST_CASE("a string that is not UTF-8 is an input error at its key path (not a failing dump)") {
  // Found by fuzz/scenario_yaml_fuzz: yaml-cpp passes bytes through, and nlohmann::json's dump()
  // (results.json, point hashes) threw type_error 316 on them: `coinfer run` exited 3.
  CHECK_THROWS_WITH(yaml_to_json("name: ab\xff\n", "s.yaml"),
                    Contains("s.yaml: name: not valid UTF-8 text (byte 0xFF at offset 2)"));
  CHECK_THROWS_WITH(yaml_to_json("a: [ok, \"\xc0\xaf\"]\n", "s.yaml"),
                    Contains("a[1]: not valid UTF-8"));  // overlong
  CHECK_THROWS_WITH(yaml_to_json("a: \xed\xa0\x80\n", "s.yaml"),
                    Contains("a: not valid UTF-8"));  // a surrogate
  CHECK_THROWS_WITH(yaml_to_json("\xf4\x90\x80\x80: 1\n", "s.yaml"),
                    Contains("line 1: not valid UTF-8"));                                      // > U+10FFFF
  CHECK_THROWS_WITH(yaml_to_json("a: \xe2\x82\n", "s.yaml"), Contains("a: not valid UTF-8"));  // cut short
  // Well-formed text of every length passes, and dumps.
  const Json j = yaml_to_json("a: \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80\"\n", "s.yaml");
  CHECK(j.dump() == "{\"a\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80\"}");
}
