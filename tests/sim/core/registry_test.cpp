// Registry: names -> (summary, parameter schema, factory); parameters are validated against the
// schema, with defaults filled, before the factory runs.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/core/registry.hpp"

using namespace coinfer;
using Catch::Matchers::Equals;

namespace {

// A component that remembers the parameters its factory received.
struct Thing {
  Json params;
};

Registry<Thing> things() {
  Registry<Thing> r("partitioner");
  r.add("split", "splits in k",
        ParamSchema{ParamSpec::integer("k", "parts").with_default(2).range(1, 8),
                    ParamSpec::string("device", "where (unset: the source)")},
        [](const Json& params) { return std::make_unique<Thing>(Thing{params}); });
  r.add("none", "takes nothing", ParamSchema{},
        [](const Json& params) { return std::make_unique<Thing>(Thing{params}); });
  return r;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("registry: the factory receives the parameters validated, with defaults filled") {
  const auto r = things();
  CHECK(r.create("split", Json::object())->params == Json{{"k", 2}, {"device", nullptr}});
  CHECK(r.create("split", Json{{"k", 5}})->params == Json{{"k", 5}, {"device", nullptr}});
}

TEST_CASE("registry: an unknown parameter fails before the factory, under the component's key") {
  const auto r = things();
  // path "partitioner.name" (where the name was read) -> parameters under "partitioner".
  CHECK_THAT(error_of([&] {
               r.create("split", Json{{"kk", 1}}, "s.yaml", "partitioner.name");
             }),
             Equals("s.yaml: partitioner.kk: unknown key; expected one of k, device"));
  CHECK_THAT(error_of([&] {
               r.create("none", Json{{"foo", 1}}, "", "scheduler.name");
             }),
             Equals("scheduler.foo: unknown key; takes no parameters"));
}

TEST_CASE("registry: without a path, parameter errors sit under the registry's kind") {
  const auto r = things();
  CHECK_THAT(error_of([&] {
               r.create("split", Json{{"k", 9}});
             }),
             Equals("partitioner.k: expected an integer in [1, 8], got 9"));
}

TEST_CASE("registry: resolved_params is what the factory would get") {
  const auto r = things();
  CHECK(r.resolved_params("split", Json{{"device", "gpu"}}) == Json{{"k", 2}, {"device", "gpu"}});
  CHECK(r.resolved_params("none", Json()) == Json::object());
  CHECK_THAT(error_of([&] {
               r.resolved_params("split", Json{{"k", "two"}}, "", "partitioner.name");
             }),
             Equals("partitioner.k: expected an integer, got a string"));
}

TEST_CASE("registry: an unknown name lists the known ones") {
  const auto r = things();
  CHECK_THAT(error_of([&] { r.create("splt", Json::object(), "s.yaml", "partitioner.name"); }),
             Equals("s.yaml: partitioner.name: unknown partitioner 'splt'; known: none, split"));
}

TEST_CASE("registry: a retired name answers with its new name, not the list") {
  auto r = things();
  r.retire("splitter", "split");
  CHECK_THAT(error_of([&] { r.create("splitter", Json::object(), "s.yaml", "partitioner.name"); }),
             Equals("s.yaml: partitioner.name: partitioner 'splitter' was renamed 'split'"));
  CHECK_FALSE(r.contains("splitter"));
  CHECK(r.names() == std::vector<std::string>{"none", "split"});
}

TEST_CASE("registry: retiring a registered name is an error") {
  auto r = things();
  CHECK_THROWS_AS(r.retire("none", "split"), Error);
}

TEST_CASE("registry: a name registered twice is an error") {
  auto r = things();
  CHECK_THROWS_AS(
      r.add("split", "again", ParamSchema{}, [](const Json&) { return std::make_unique<Thing>(); }), Error);
}

TEST_CASE("registry: summary and schema are kept for listings") {
  const auto r = things();
  CHECK(r.names() == std::vector<std::string>{"none", "split"});
  CHECK(r.summary("split") == "splits in k");
  CHECK(r.params("split").names() == std::vector<std::string>{"k", "device"});
  CHECK(r.params("none").empty());
}
