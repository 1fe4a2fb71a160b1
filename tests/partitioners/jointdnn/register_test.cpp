// The JointDNN family through the solver registry: JSON problem in, JSON solution out, errors
// naming the JSON path for every solver.
#include "partitioners/jointdnn/register.hpp"

#include <catch2/catch.hpp>

#include "tests/partitioners/jointdnn/jointdnn_test_support.hpp"
#include "tests/solve/solve_test_support.hpp"

#include "sim/core/error.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;
using coinfer::jointdnn::testing::three_layers;

namespace {

SolverRegistry jointdnn_registry() {
  SolverRegistry r("solver");
  register_jointdnn_solvers(r);
  return r;
}

std::string error_path(const std::string& solver, const Json& p) {
  return coinfer::testing::input_error_path(
      [&] { coinfer::testing::solve_with(register_jointdnn_solvers, solver, p); });
}

}  // namespace

TEST_CASE("the four JointDNN solvers are registered") {
  const auto r = jointdnn_registry();
  for (const char* name : {"jointdnn", "jointdnn-ilp", "jointdnn-labels", "neurosurgeon"})
    CHECK(r.contains(name));
}

TEST_CASE("every exact solver returns the same solution JSON on the three-layer example") {
  // Optimum M[1] C[2] M[3]: 1 + 0.5 + 0.5 + 0.5 + 1 = 3.5 s, cloud time 0.5 s, no energy data.
  const Json expected = Json::parse(R"({"feasible": true, "groups": [
      {"first": 1, "last": 1, "on": "mobile"}, {"first": 2, "last": 2, "on": "cloud"},
      {"first": 3, "last": 3, "on": "mobile"}], "latency": 3.5, "energy": null, "cloud_time": 0.5})");
  const auto r = jointdnn_registry();
  for (const char* name : {"jointdnn", "jointdnn-ilp", "jointdnn-labels"}) {
    INFO(name);
    CHECK(r.create(name, Json::object())->solve(three_layers()) == expected);
  }
}

TEST_CASE("malformed problems fail with the JSON path in every solver") {
  struct Case {
    const char* pointer;
    Json value;
    const char* path;
  };
  const std::vector<Case> cases = {
      {"/mobile_time/2", {1, 2}, "mobile_time[2]"},
      {"/upload_time", {1, 2}, "upload_time"},
      {"/skips", {{2, 3}}, "skips[0]"},
      {"/objective", "throughput", "objective"},
      {"/max_energy", 1.0, "max_energy"},
      {"/layers", -3, "layers"},
      {"/cloud_time/1/0", -0.5, "cloud_time[1][0]"},
      {"/bandwidth", 5, "bandwidth"},
  };
  for (const char* solver : {"jointdnn", "jointdnn-ilp", "jointdnn-labels", "neurosurgeon"})
    for (const auto& c : cases) {
      Json p = three_layers();
      p[Json::json_pointer(c.pointer)] = c.value;
      INFO(solver << " " << c.pointer);
      CHECK(error_path(solver, p) == c.path);
    }
}

TEST_CASE("only jointdnn refuses maxima") {
  Json p = three_layers();
  p["max_latency"] = 3.0;  // below the 3.5 optimum: infeasible for the constrained solvers
  CHECK(error_path("jointdnn", p) == "max_latency");
  const auto r = jointdnn_registry();
  for (const char* name : {"jointdnn-ilp", "jointdnn-labels", "neurosurgeon"})
    CHECK(r.create(name, Json::object())->solve(p)["feasible"] == false);
}
