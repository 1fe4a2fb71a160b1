#include "partitioners/modnn/bodp.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include <catch2/catch.hpp>

#include "tests/solve/solve_test_support.hpp"

#include "partitioners/modnn/register.hpp"
#include "sim/core/error.hpp"
#include "tests/partitioners/modnn/conv_geometry_support.hpp"

using namespace coinfer;
using namespace coinfer::modnn;
using coinfer::modnn::testing::conv;

namespace Catch {
template <>
struct StringMaker<IndexRange> {
  static std::string convert(const IndexRange& r) {
    return "[" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")";
  }
};
}  // namespace Catch

namespace {

/// A random valid conv problem with 1..8 nodes.
BodpProblem random_problem(std::mt19937_64& rng) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  BodpProblem p;
  const auto k = pick(1, 7), pad = pick(0, 3);
  p.conv = conv(pick(std::max<std::int64_t>(1, k - 2 * pad), 40),
                pick(std::max<std::int64_t>(1, k - 2 * pad), 40), pick(1, 5), k, pick(1, 3), pad, pick(1, 4));
  const auto n = pick(1, 8);
  for (std::int64_t i = 0; i < n; ++i)
    p.capabilities.push_back(std::uniform_real_distribution<double>(0.1, 10.0)(rng));
  return p;
}

Json solve(const std::string& name, const Json& problem) {
  return coinfer::testing::solve_with(register_modnn_solvers, name, problem);
}

/// The InputError path a solver reports for `problem` ("" when it does not throw one).
std::string error_path(const std::string& name, const Json& problem) {
  return coinfer::testing::input_error_path([&] { solve(name, problem); });
}

Json example_problem() {
  return {{"height", 10}, {"width", 6},    {"channels", 3},          {"kernel", 3},         {"stride", 1},
          {"padding", 1}, {"filters", 16}, {"capabilities", {1, 1}}, {"bytes_per_value", 4}};
}

}  // namespace

TEST_CASE("proportional_sizes: largest remainder, ties to the lower index", "[modnn][bodp]") {
  // 10 over {1,1,1}: shares 3.33 each, floors 3+3+3 = 9, the spare item to node 0 (tie).
  CHECK(proportional_sizes(10, {1, 1, 1}) == std::vector<std::int64_t>{4, 3, 3});
  // 7 over {1,2,4}: shares 1, 2, 4 exactly.
  CHECK(proportional_sizes(7, {1, 2, 4}) == std::vector<std::int64_t>{1, 2, 4});
  // 5 over {1,3}: shares 1.25, 3.75 -> floors 1, 3; the spare to the larger fraction (node 1).
  CHECK(proportional_sizes(5, {1, 3}) == std::vector<std::int64_t>{1, 4});
  // 2 items over 4 nodes: shares 0.5 each; the two spare items go to nodes 0 and 1.
  CHECK(proportional_sizes(2, {1, 1, 1, 1}) == std::vector<std::int64_t>{1, 1, 0, 0});
}

TEST_CASE("receptive_range: hand-computed stride / padding cases", "[modnn][bodp]") {
  // out [2,4), F=3, s=2, p=1: first = 2*2-1 = 3, end = (4-1)*2-1+3 = 8, input 8 -> [3, 8).
  CHECK(receptive_range({2, 4}, 3, 2, 1, 8) == IndexRange{3, 8});
  // out [0,1), F=3, s=1, p=1: [-1, 2) clipped to [0, 2).
  CHECK(receptive_range({0, 1}, 3, 1, 1, 5) == IndexRange{0, 2});
  // out [3,4), F=5, s=1, p=2, input 4: [1, 6) clipped to [1, 4).
  CHECK(receptive_range({3, 4}, 5, 1, 2, 4) == IndexRange{1, 4});
  // F=11, s=4, p=0 (AlexNet conv1 style), out [1,3): [4, 2*4+11) = [4, 19).
  CHECK(receptive_range({1, 3}, 11, 4, 0, 227) == IndexRange{4, 19});
  // An empty output range reads nothing.
  CHECK(receptive_range({2, 2}, 3, 1, 1, 8).size() == 0);
}

TEST_CASE("bodp: hand-computed stripes, halos and transfer bytes", "[modnn][bodp]") {
  SECTION("stride 1, same padding, 2 equal nodes: eq. 4.1") {
    // H=10 > W=6 -> height. Ho = 10, stripes [0,5) [5,10). Inputs [0,6) and [4,10) (p = 1).
    // Owned [0,5) [5,10): each node misses 1 row -> 2 rows * W 6 * C 3 * Z 4 = 144 bytes
    // = eq. 4.1 min(H, W) * C * (F-1) * Z = 6 * 3 * 2 * 4.
    const auto plan = bodp_partition({conv(10, 6, 3, 3, 1, 1), {1, 1}});
    CHECK(plan.axis == SplitAxis::Height);
    CHECK(plan.output_ranges == std::vector<IndexRange>{{0, 5}, {5, 10}});
    CHECK(plan.input_ranges == std::vector<IndexRange>{{0, 6}, {4, 10}});
    CHECK(plan.halo_rows == std::vector<std::int64_t>{1, 1});
    CHECK(plan.peers == std::vector<std::int64_t>{1, 1});
    CHECK(plan.transfer_bytes == 144);
  }
  SECTION("stride 2, padding 1, biased capabilities") {
    // H = W = 8 (tie -> height), Ho = (8+2-3)/2+1 = 4; CA {1,3}: output [0,1) [1,4).
    // Inputs: [0*2-1, 0*2-1+3) = [-1,2) -> [0,2); [1*2-1, 3*2-1+3) = [1,8).
    // Owned: 8 rows by {1,3} -> [0,2) [2,8). Node 1 misses row 1: 1 row * W 8 * C 2 * Z 4 = 64.
    const auto plan = bodp_partition({conv(8, 8, 2, 3, 2, 1), {1, 3}});
    CHECK(plan.axis == SplitAxis::Height);
    CHECK(plan.output_ranges == std::vector<IndexRange>{{0, 1}, {1, 4}});
    CHECK(plan.input_ranges == std::vector<IndexRange>{{0, 2}, {1, 8}});
    CHECK(plan.halo_rows == std::vector<std::int64_t>{0, 1});
    CHECK(plan.transfer_bytes == 64);
  }
  SECTION("width is longer, no padding, 3 nodes") {
    // H=4 < W=9 -> width. Wo = 7 -> sizes {3,2,2}: [0,3) [3,5) [5,7). Inputs (F=3):
    // [0,5) [3,7) [5,9). Owned 9 by thirds: [0,3) [3,6) [6,9). Halos: [3,5) = 2, [6,7) = 1,
    // [5,6) = 1 -> 4 rows * H 4 * C 1 * Z 2 = 32 bytes.
    const auto plan = bodp_partition({conv(4, 9, 1, 3, 1, 0, 2), {1, 1, 1}});
    CHECK(plan.axis == SplitAxis::Width);
    CHECK(plan.output_ranges == std::vector<IndexRange>{{0, 3}, {3, 5}, {5, 7}});
    CHECK(plan.input_ranges == std::vector<IndexRange>{{0, 5}, {3, 7}, {5, 9}});
    CHECK(plan.halo_rows == std::vector<std::int64_t>{2, 1, 1});
    CHECK(plan.transfer_bytes == 32);
  }
}

TEST_CASE("bodp: output stripes cover the output exactly and follow CA within one row", "[modnn][bodp]") {
  std::mt19937_64 rng(20240501);
  for (int trial = 0; trial < 500; ++trial) {
    const auto p = random_problem(rng);
    const auto plan = bodp_partition(p);
    const bool by_height = p.conv.width <= p.conv.height;
    CHECK((plan.axis == SplitAxis::Height) == by_height);
    const auto extent = by_height ? p.conv.output_height() : p.conv.output_width();
    REQUIRE(plan.output_ranges.size() == p.capabilities.size());
    double total_ca = 0.0;
    for (const double c : p.capabilities) total_ca += c;
    std::int64_t next = 0;
    for (std::size_t i = 0; i < plan.output_ranges.size(); ++i) {
      CHECK(plan.output_ranges[i].begin == next);
      CHECK(plan.output_ranges[i].end >= plan.output_ranges[i].begin);
      next = plan.output_ranges[i].end;
      CHECK(std::fabs(double(plan.output_ranges[i].size()) - double(extent) * p.capabilities[i] / total_ca) <
            1.0);
    }
    CHECK(next == extent);
  }
}

TEST_CASE("bodp: input ranges are the receptive field of each stripe, by brute force", "[modnn][bodp]") {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 500; ++trial) {
    const auto p = random_problem(rng);
    const auto plan = bodp_partition(p);
    const auto in_extent = plan.axis == SplitAxis::Height ? p.conv.height : p.conv.width;
    for (std::size_t i = 0; i < plan.output_ranges.size(); ++i) {
      // Smallest and largest input index any output of the stripe reads through a kernel tap.
      std::int64_t lo = in_extent, hi = -1;
      for (auto o = plan.output_ranges[i].begin; o < plan.output_ranges[i].end; ++o)
        for (std::int64_t t = 0; t < p.conv.kernel; ++t) {
          const auto x = o * p.conv.stride - p.conv.padding + t;
          if (x >= 0 && x < in_extent) lo = std::min(lo, x), hi = std::max(hi, x);
        }
      const auto& in = plan.input_ranges[i];
      if (hi < 0) {
        CHECK(in.size() == 0);
      } else {
        CHECK(in == IndexRange{lo, hi + 1});
      }
    }
  }
}

TEST_CASE("bodp: transfer_bytes counts every input row a node needs but does not own", "[modnn][bodp]") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const auto p = random_problem(rng);
    const auto plan = bodp_partition(p);
    const bool by_height = plan.axis == SplitAxis::Height;
    const auto in_extent = by_height ? p.conv.height : p.conv.width;
    const auto across = by_height ? p.conv.width : p.conv.height;
    // Owner of each input row under the proportional split of the input; count needed rows owned by
    // someone else, row by row.
    const auto owned = proportional_split(in_extent, p.capabilities);
    std::int64_t rows = 0;
    for (std::size_t i = 0; i < plan.input_ranges.size(); ++i)
      for (auto x = plan.input_ranges[i].begin; x < plan.input_ranges[i].end; ++x)
        rows += !(x >= owned[i].begin && x < owned[i].end);
    CHECK(plan.transfer_bytes == rows * across * p.conv.channels * p.conv.bytes_per_value);
  }
}

TEST_CASE("bodp: equal nodes, stride 1, same padding cost eq. 4.1 per neighbour pair", "[modnn][bodp]") {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 200; ++trial) {
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
      return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    const auto f = 2 * pick(0, 3) + 1, n = pick(1, 6);
    const auto h = pick(n * (f + 1), 80), w = pick(n * (f + 1), 80), c = pick(1, 8), z = pick(1, 4);
    const auto plan =
        bodp_partition({conv(h, w, c, f, 1, (f - 1) / 2, z), std::vector<double>(std::size_t(n), 1.0)});
    // eq. 4.1: W_trans = min(H, W) * C * (F - 1) * Z for each of the n - 1 neighbouring pairs.
    CHECK(plan.transfer_bytes == (n - 1) * std::min(h, w) * c * (f - 1) * z);
    for (const auto peers : plan.peers) CHECK(peers <= 2);
  }
}

TEST_CASE("bodp solve: solution JSON has exactly the schema's keys", "[modnn][bodp][solve]") {
  const auto s = solve("bodp", example_problem());
  CHECK(s.size() == 4);
  CHECK(s.at("axis") == "height");
  CHECK(s.at("output_ranges") == Json::parse("[[0,5],[5,10]]"));
  CHECK(s.at("input_ranges") == Json::parse("[[0,6],[4,10]]"));
  CHECK(s.at("transfer_bytes") == 144);  // hand-derived in the first test
}

TEST_CASE("bodp solve: malformed problems name the JSON path", "[modnn][bodp][solve]") {
  auto with = [](const std::string& key, const Json& value) {
    auto p = example_problem();
    p[key] = value;
    return p;
  };
  CHECK(error_path("bodp", with("capabilities", Json::array())) == "capabilities");
  CHECK(error_path("bodp", with("capabilities", {1, 0})) == "capabilities[1]");
  CHECK(error_path("bodp", with("capabilities", {1, "x"})) == "capabilities[1]");
  CHECK(error_path("bodp", with("kernel", -3)) == "kernel");
  CHECK(error_path("bodp", with("kernel", 9)) == "kernel");  // larger than min(10, 6) + 2
  CHECK(error_path("bodp", with("stride", 0)) == "stride");
  CHECK(error_path("bodp", with("padding", -1)) == "padding");
  CHECK(error_path("bodp", with("height", 2.5)) == "height");
  CHECK(error_path("bodp", with("bytes_per_value", 0)) == "bytes_per_value");
  CHECK(error_path("bodp", with("nodes", 3)) == "nodes");  // unknown key
  auto missing = example_problem();
  missing.erase("filters");
  CHECK(error_path("bodp", missing) == "filters");
  CHECK(error_path("bodp", Json::array()) == "");
}

TEST_CASE("receptive_range: outputs that read only padding are left out", "[modnn][bodp]") {
  // kernel 1, stride 3, padding 2: output 0 reads row -2 (padding), output 1 reads row 1.
  CHECK(receptive_range({0, 2}, 1, 3, 2, 8) == IndexRange{1, 2});
  // Output 3 reads row 7; output 4 would read row 10 >= 8 (padding): [0*3-2.. ] -> rows 1, 4, 7.
  CHECK(receptive_range({0, 5}, 1, 3, 2, 8) == IndexRange{1, 8});
  CHECK(receptive_range({4, 5}, 1, 3, 2, 8).size() == 0);
}

TEST_CASE("bodp: bad capabilities from code throw Error", "[modnn][bodp]") {
  CHECK_THROWS_AS(bodp_partition({conv(8, 8, 1, 3, 1, 1), {}}), Error);
  CHECK_THROWS_AS(bodp_partition({conv(8, 8, 1, 3, 1, 1), {1.0, 0.0}}), Error);
  CHECK_THROWS_AS(bodp_partition({conv(8, 8, 1, 3, 1, 1), {1.0, NAN}}), Error);
}
