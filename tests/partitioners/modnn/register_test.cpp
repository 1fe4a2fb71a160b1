#include "partitioners/modnn/register.hpp"

#include <catch2/catch.hpp>

#include "partitioners/modnn/mscc.hpp"
#include "sim/core/json_access.hpp"

using namespace coinfer;

namespace {

SolverRegistry modnn_registry() {
  SolverRegistry registry("solver");
  register_modnn_solvers(registry);
  return registry;
}

}  // namespace

TEST_CASE("modnn: every solver is registered once", "[modnn][solve]") {
  auto registry = modnn_registry();
  for (const auto* name : {"bodp", "grid2d", "fc-1d", "mscc", "fgcp"}) CHECK(registry.contains(name));
  CHECK_THROWS_AS(register_modnn_solvers(registry), Error);  // duplicates are rejected
}

TEST_CASE("modnn: the example problem files solve to their documented answers", "[modnn][solve]") {
  const auto registry = modnn_registry();
  // VGG-16 conv1_2 (224 x 224 x 64, 3x3, s 1, p 1) over CA 1 : 1.2 : 0.8 : 1. Shares of 224:
  // 56, 67.2, 44.8, 56 -> floors 56, 67, 44, 56 (223), the spare row to the largest fraction (0.8):
  // [0,56) [56,123) [123,168) [168,224). Three boundaries of F-1 = 2 halo rows each: eq. 4.1
  // 3 * 224 * 64 * 2 * 4 = 344064 bytes.
  const auto bodp = registry.create("bodp", {})
                        ->solve(read_json_file(COINFER_SOURCE_DIR "/scenarios/solve/bodp_example.json"));
  CHECK(bodp.at("output_ranges") == Json::parse("[[0,56],[56,123],[123,168],[168,224]]"));
  CHECK(bodp.at("input_ranges") == Json::parse("[[0,57],[55,124],[122,169],[167,224]]"));
  CHECK(bodp.at("transfer_bytes") == 344064);
  // Two planted 4 x 3 co-clusters plus the outliers (0,4) and (5,1): exactly those two outside.
  const auto mscc = registry.create("mscc", {})
                        ->solve(read_json_file(COINFER_SOURCE_DIR "/scenarios/solve/mscc_example.json"));
  CHECK(mscc.at("inside") == 22);
  CHECK(mscc.at("outside") == 2);
  const auto rows = mscc.at("row_cluster").get<std::vector<int>>();
  CHECK(rows == std::vector<int>{rows[0], rows[0], rows[0], rows[0], rows[4], rows[4], rows[4], rows[4]});
  CHECK(rows[0] != rows[4]);
}

TEST_CASE("modnn: the Matrix Market example solves like the inline one", "[modnn][solve][mtx]") {
  // scenarios/solve/mscc_mtx_example.json names mscc_example.mtx (relative to the problem file),
  // the pattern of mscc_example.json: the same clusters, 22 inside, 2 outside.
  const std::string dir = COINFER_SOURCE_DIR "/scenarios/solve";
  const auto from_file = modnn::solve_mscc_json(read_json_file(dir + "/mscc_mtx_example.json"), dir);
  const auto from_entries = modnn::solve_mscc_json(read_json_file(dir + "/mscc_example.json"));
  CHECK(from_file == from_entries);
  CHECK(from_file.at("outside") == 2);
}
