// Parsing JSON inputs: numbers beyond double or int64, and nesting, are input errors naming the
// file and the key path where they are.
#include <string>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/core/json_access.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

std::string parse_error(const std::string& text, const std::string& file = "m.json") {
  try {
    parse_json_text(text, file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string int_error(const std::string& text) {
  try {
    json_as_int(Json::parse(text), "layers[1].out_channels");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a float beyond double names the file and key path") {
  const auto text = R"({"layers": [{"name": "a"}, {"name": "b", "padding": 1e400}]})";
  CHECK(parse_error(text) == "m.json: layers[1].padding: number out of range (1e400)");
}

TEST_CASE("a negative float beyond double inside nested arrays names the element") {
  // [0][2] of "rows": the third element of the first row
  CHECK(parse_error(R"({"rows": [[1, 2, -1e999]]})", "p.json") ==
        "p.json: rows[0][2]: number out of range (-1e999)");
}

TEST_CASE("the key path counts array elements of every kind") {
  // elements 0 (object), 1 (array), 2 (string), 3 (null) come before the bad one at index 4
  CHECK(parse_error(R"([{"a": 1}, [2], "x", null, 1e400])") == "m.json: [4]: number out of range (1e400)");
}

TEST_CASE("syntax errors are still 'not valid JSON' without a path") {
  CHECK_THAT(parse_error(R"({"a": [1, 2})"), Contains("m.json: not valid JSON:"));
}

TEST_CASE("a well-formed document parses as nlohmann's own parser does") {
  const auto text = R"({"a": [1, -2, 3.5, 18446744073709551615, true, null, "s", {"b": {}}], "c": []})";
  CHECK(parse_json_text(text, "x.json") == Json::parse(text));
}

TEST_CASE("nesting deeper than kMaxJsonDepth is 'nested too deeply', not a crash") {
  const std::string deep(100000, '[');
  CHECK_THAT(parse_error(deep), Contains("m.json: ") && Contains("nested too deeply"));
}

TEST_CASE("nesting up to kMaxJsonDepth is accepted") {
  const auto n = static_cast<std::ptrdiff_t>(kMaxJsonDepth);
  const std::string ok = std::string(n, '[') + std::string(n, ']');
  CHECK_NOTHROW(parse_json_text(ok, "m.json"));
  const std::string over = std::string(n + 1, '[') + std::string(n + 1, ']');
  CHECK_THAT(parse_error(over), Contains("nested too deeply"));
}

TEST_CASE("an unsigned integer above INT64_MAX is 'integer out of range', not wrapped") {
  // 2^64 - 1 read with get<int64_t>() would be -1
  CHECK(int_error("18446744073709551615") ==
        "layers[1].out_channels: integer out of range (18446744073709551615 > 2^63 - 1)");
  CHECK(int_error("9223372036854775808") ==  // 2^63, one above INT64_MAX
        "layers[1].out_channels: integer out of range (9223372036854775808 > 2^63 - 1)");
}

TEST_CASE("an integer literal beyond uint64 (2^70) is 'integer out of range'") {
  // nlohmann keeps 1180591620717411303424 = 2^70 as the double 1.1805916207174113e21
  CHECK_THAT(int_error("1180591620717411303424"), Contains("layers[1].out_channels: integer out of range"));
  CHECK_THAT(int_error("-1e19"), Contains("integer out of range"));  // below -2^63
}

TEST_CASE("integral floats up to 2^63 are integers, fractions are not") {
  CHECK(json_as_int(Json::parse("1e18"), "x") == 1000000000000000000);
  CHECK(json_as_int(Json::parse("9223372036854775807"), "x") == INT64_MAX);
  CHECK(int_error("2.5") == "layers[1].out_channels: expected an integer, got a number");
}
