#include "partitioners/modnn/grid2d.hpp"

#include <random>

#include <catch2/catch.hpp>

#include "tests/solve/solve_test_support.hpp"

#include "partitioners/modnn/register.hpp"
#include "sim/core/error.hpp"
#include "tests/partitioners/modnn/conv_geometry_support.hpp"

using namespace coinfer;
using namespace coinfer::modnn;
using coinfer::modnn::testing::conv;

namespace {

Json solve_grid(const Json& problem) {
  return coinfer::testing::solve_with(register_modnn_solvers, "grid2d", problem);
}

}  // namespace

TEST_CASE("near_square_grid: the factor pair closest to a square", "[modnn][grid2d]") {
  CHECK(near_square_grid(1) == std::pair<std::int64_t, std::int64_t>{1, 1});
  CHECK(near_square_grid(4) == std::pair<std::int64_t, std::int64_t>{2, 2});
  CHECK(near_square_grid(6) == std::pair<std::int64_t, std::int64_t>{2, 3});
  CHECK(near_square_grid(12) == std::pair<std::int64_t, std::int64_t>{3, 4});
  CHECK(near_square_grid(5) == std::pair<std::int64_t, std::int64_t>{1, 5});  // prime: a 1-D split
}

TEST_CASE("grid2d: 4 nodes on 8x8, hand-computed halos (Fig. 4 of the thesis)", "[modnn][grid2d]") {
  // 2 x 2 tiles of 4 x 4 outputs (F=3, s=1, p=1). Tile (0,0) reads rows [0,5) x cols [0,5) = 25
  // elements and owns [0,4) x [0,4) = 16: 9 halo elements; by symmetry all four tiles have 9.
  // 36 elements * C 1 * Z 4 = 144 bytes. Each tile talks to the three others.
  const auto plan = grid2d_partition({conv(8, 8, 1, 3, 1, 1), 4});
  CHECK(plan.grid_rows == 2);
  CHECK(plan.grid_cols == 2);
  REQUIRE(plan.tiles.size() == 4);
  CHECK(plan.tiles[0].input_rows == IndexRange{0, 5});
  CHECK(plan.tiles[3].input_cols == IndexRange{3, 8});
  for (const auto& t : plan.tiles) {
    CHECK(t.halo_elements == 9);
    CHECK(t.peers == 3);
  }
  CHECK(plan.transfer_bytes == 144);
  // BODP on the same layer: stripes of 2 rows, halos 1, 2, 2, 1 rows * 8 * 1 * 4 = 192 bytes, more
  // bytes but at most 2 peers per node (the thesis's trade-off, sec. 7.2).
  const auto bodp = bodp_partition({conv(8, 8, 1, 3, 1, 1), {1, 1, 1, 1}});
  CHECK(bodp.transfer_bytes == 192);
}

TEST_CASE("grid2d: the longer grid side follows the longer input axis", "[modnn][grid2d]") {
  // 6 nodes -> 2 x 3; a wide input gets 2 grid rows and 3 grid columns, a tall one the reverse.
  CHECK(grid2d_partition({conv(10, 30, 1, 3, 1, 1), 6}).grid_cols == 3);
  CHECK(grid2d_partition({conv(30, 10, 1, 3, 1, 1), 6}).grid_rows == 3);
}

TEST_CASE("grid2d: tiles cover the output exactly once and read their receptive field", "[modnn][grid2d]") {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 300; ++trial) {
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
      return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    const auto k = pick(1, 5), pad = pick(0, 2);
    const auto g = conv(pick(std::max<std::int64_t>(1, k - 2 * pad), 30),
                        pick(std::max<std::int64_t>(1, k - 2 * pad), 30), pick(1, 3), k, pick(1, 3), pad);
    const auto plan = grid2d_partition({g, pick(1, 9)});
    std::vector<int> hits(std::size_t(g.output_height() * g.output_width()), 0);
    for (const auto& t : plan.tiles) {
      for (auto r = t.output_rows.begin; r < t.output_rows.end; ++r)
        for (auto c = t.output_cols.begin; c < t.output_cols.end; ++c)
          ++hits[std::size_t(r * g.output_width() + c)];
      CHECK(t.input_rows == receptive_range(t.output_rows, g.kernel, g.stride, g.padding, g.height));
      CHECK(t.input_cols == receptive_range(t.output_cols, g.kernel, g.stride, g.padding, g.width));
    }
    for (const int h : hits) CHECK(h == 1);
  }
}

TEST_CASE("grid2d solve: schema and errors", "[modnn][grid2d][solve]") {
  Json p = {{"height", 8},  {"width", 8},   {"channels", 1},        {"kernel", 3}, {"stride", 1},
            {"padding", 1}, {"filters", 4}, {"bytes_per_value", 4}, {"nodes", 4}};
  const auto s = solve_grid(p);
  CHECK(s.at("grid") == Json::parse("[2,2]"));
  CHECK(s.at("transfer_bytes") == 144);
  CHECK(s.at("tiles").size() == 4);
  CHECK(s.at("tiles")[0].at("output_rows") == Json::parse("[0,4]"));
  p["grid"] = {1, 4};
  CHECK(solve_grid(p).at("tiles")[1].at("output_cols") == Json::parse("[2,4]"));
  p["grid"] = {3, 2};
  try {
    solve_grid(p);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.path() == "grid");
  }
  p.erase("grid");
  p["nodes"] = 0;
  CHECK_THROWS_AS(solve_grid(p), InputError);
}
