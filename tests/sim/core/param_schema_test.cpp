// ParamSchema: the table that validates a component's parameters and that `coinfer list` prints.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/core/param_schema.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

// A schema shaped like MoDNN's: an optional int without default, an int and an enum with defaults.
ParamSchema workers_schema() {
  return ParamSchema{
      ParamSpec::integer("workers", "worker phones (unset: the sweet spot)").range(1, 1024),
      ParamSpec::integer("seed", "weights seed").with_default(0).at_least(0),
      ParamSpec::enumeration("conv", {"bodp", "grid2d"}, "conv split").with_default("bodp"),
  };
}

std::string error_of(const ParamSchema& schema, const Json& params) {
  try {
    schema.resolve(params, "partitioner");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("param schema: an unknown key is named and the known keys are listed") {
  CHECK_THAT(error_of(workers_schema(), Json{{"wokers", 4}}),
             Equals("partitioner.wokers: unknown key; expected one of workers, seed, conv"));
}

TEST_CASE("param schema: a component without parameters rejects every key") {
  CHECK_THAT(error_of(ParamSchema{}, Json{{"foo", 1}}),
             Equals("partitioner.foo: unknown key; takes no parameters"));
}

TEST_CASE("param schema: a wrong type names the parameter's path") {
  CHECK_THAT(error_of(workers_schema(), Json{{"workers", "many"}}),
             Equals("partitioner.workers: expected an integer, got a string"));
  CHECK_THAT(error_of(workers_schema(), Json{{"conv", 3}}),
             Equals("partitioner.conv: expected one of bodp, grid2d, got a number"));
}

TEST_CASE("param schema: a value outside its range names the bounds") {
  CHECK_THAT(error_of(workers_schema(), Json{{"workers", 0}}),
             Equals("partitioner.workers: expected an integer in [1, 1024], got 0"));
  CHECK_THAT(error_of(workers_schema(), Json{{"conv", "grid3d"}}),
             Equals("partitioner.conv: expected one of bodp, grid2d, got 'grid3d'"));
}

TEST_CASE("param schema: defaults are filled and unset optional parameters are null") {
  // Given: workers only. Defaults: seed 0, conv bodp. Nothing is dropped.
  const Json resolved = workers_schema().resolve(Json{{"workers", 4}}, "partitioner");
  CHECK(resolved == Json{{"workers", 4}, {"seed", 0}, {"conv", "bodp"}});
  // An empty mapping, null params and explicit nulls all mean "nothing given".
  const Json unset{{"workers", nullptr}, {"seed", 0}, {"conv", "bodp"}};
  CHECK(workers_schema().resolve(Json::object(), "partitioner") == unset);
  CHECK(workers_schema().resolve(Json(), "partitioner") == unset);
  CHECK(workers_schema().resolve(Json{{"workers", nullptr}}, "partitioner") == unset);
}

TEST_CASE("param schema: an integral float is accepted as an integer") {
  const Json resolved = workers_schema().resolve(Json{{"workers", 3.0}}, "partitioner");
  CHECK(resolved["workers"].is_number_integer());
  CHECK(resolved["workers"] == 3);
}

TEST_CASE("param schema: a required parameter that is absent is a missing key") {
  const ParamSchema schema{ParamSpec::path("file", "plan file").mandatory()};
  CHECK_THAT(error_of(schema, Json::object()), Equals("partitioner.file: missing key"));
  CHECK(schema.resolve(Json{{"file", "p.json"}}, "partitioner") == Json{{"file", "p.json"}});
}

TEST_CASE("param schema: params that are not a mapping are rejected at the prefix") {
  CHECK_THAT(error_of(workers_schema(), Json::array({1})), Contains("partitioner: expected a mapping"));
}

TEST_CASE("param schema: a duplicate name or a default failing its own check is a coding error") {
  CHECK_THROWS_AS((ParamSchema{ParamSpec::integer("k", ""), ParamSpec::number("k", "")}), Error);
  CHECK_THROWS_WITH((ParamSchema{ParamSpec::integer("k", "").range(1, 4).with_default(9)}),
                    Contains("parameter 'k': bad default"));
  CHECK_THROWS_AS((ParamSchema{ParamSpec::string("f", "").mandatory().with_default("x")}), Error);
}

TEST_CASE("param schema: listing texts state type, bounds and default") {
  const auto schema = workers_schema();
  CHECK(schema.find("workers")->type_text() == "int in [1, 1024]");
  CHECK(schema.find("workers")->default_text() == "-");
  CHECK(schema.find("seed")->type_text() == "int >= 0");
  CHECK(schema.find("seed")->default_text() == "0");
  CHECK(schema.find("conv")->type_text() == "bodp | grid2d");
  CHECK(schema.find("conv")->default_text() == "bodp");
  CHECK(ParamSpec::path("file", "").mandatory().default_text() == "required");
  CHECK(ParamSpec::number("p", "").range(0.0, 0.999).type_text() == "number in [0, 0.999]");
}

TEST_CASE("param schema: from_json inverts to_json") {
  const auto schema = workers_schema();
  for (const auto& spec : schema.params()) {
    const auto back = ParamSpec::from_json(spec.to_json());
    CHECK(back.to_json() == spec.to_json());
    CHECK(back.type_text() == spec.type_text());
  }
}

TEST_CASE("param schema: a solver's schema takes nothing and says where its problem is documented") {
  const auto schema = problem_documented_in("partitioners/modnn/bodp.hpp");
  CHECK(schema.empty());
  CHECK(schema.documented_in() == "partitioners/modnn/bodp.hpp");
  CHECK(schema.resolve(Json::object(), "solve") == Json::object());
}

TEST_CASE("a path parameter is named file or ends in _file, so scenarios know to resolve it") {
  CHECK_NOTHROW(ParamSpec::path("file", "a plan"));
  CHECK_NOTHROW(ParamSpec::path("trace_file", "a trace"));
  CHECK_THROWS_AS(ParamSpec::path("trace", "a trace"), Error);
}

TEST_CASE("param schema: a value parameter takes any JSON, checked by its component") {
  const ParamSchema s{ParamSpec::value("devices", "list of device names").mandatory()};
  const Json list = {"d1", "d2"};
  CHECK(s.resolve(Json{{"devices", list}}, "partitioner")["devices"] == list);
  CHECK(s.resolve(Json{{"devices", {{"a", 1}}}}, "partitioner")["devices"]["a"] == 1);
  CHECK(std::string(param_type_name(ParamType::Value)) == "value");
  CHECK(ParamSpec::from_json(ParamSpec::value("x", "y").to_json()).type == ParamType::Value);
  CHECK_THROWS_WITH(s.resolve(Json::object(), "partitioner"),
                    Catch::Contains("partitioner.devices: missing key"));
}
