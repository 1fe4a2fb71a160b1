#include "partitioners/modnn/fgcp.hpp"

#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "tests/solve/solve_test_support.hpp"

#include "partitioners/modnn/register.hpp"
#include "sim/core/error.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

namespace {

/// The hand example: 4 x 2 (cols <= rows: outliers by row cluster, columns offloaded), k = 2.
/// Rows {0,1} and column 0 in cluster 0; rows {2,3} and column 1 in cluster 1.
FgcpProblem hand_problem() {
  FgcpProblem p;
  p.pattern = {4, 2, {{0, 0}, {1, 0}, {2, 1}, {3, 1}, {0, 1}, {2, 0}, {3, 0}}};
  p.row_cluster = {0, 0, 1, 1};
  p.col_cluster = {0, 1};
  p.worker_s_per_nonzero = {1.0, 1.0};
  p.go_s_per_nonzero = 0.25;
  p.throughput_bps = 8.0;  // 1-byte values: value_s = 1 s
  p.bytes_per_value = 1;
  return p;
}

/// A random instance: random pattern, random clusters and costs.
FgcpProblem random_problem(std::mt19937_64& rng) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  std::uniform_real_distribution<double> u(0.0, 1.0);
  FgcpProblem p;
  p.pattern.rows = pick(1, 25);
  p.pattern.cols = pick(1, 25);
  std::set<std::pair<std::int64_t, std::int64_t>> cells;
  for (auto n = pick(0, 120); n > 0; --n)
    cells.insert({pick(0, p.pattern.rows - 1), pick(0, p.pattern.cols - 1)});
  for (const auto& [r, c] : cells) p.pattern.entries.push_back({r, c});
  const auto k = pick(1, 4);
  for (std::int64_t i = 0; i < p.pattern.rows; ++i) p.row_cluster.push_back(int(pick(0, k - 1)));
  for (std::int64_t j = 0; j < p.pattern.cols; ++j) p.col_cluster.push_back(int(pick(0, k - 1)));
  for (std::int64_t w = 0; w < k; ++w) p.worker_s_per_nonzero.push_back(u(rng) * 2.0);
  p.go_s_per_nonzero = u(rng) * 2.0;
  p.throughput_bps = 1.0 + u(rng) * 100.0;
  p.bytes_per_value = pick(1, 8);
  return p;
}

Json solve_fgcp(const Json& problem) {
  return coinfer::testing::solve_with(register_modnn_solvers, "fgcp", problem);
}

std::string error_path(const Json& problem) {
  return coinfer::testing::input_error_path([&] { solve_fgcp(problem); });
}

Json hand_json() {
  return {{"rows", 4},
          {"cols", 2},
          {"entries", {{0, 0}, {1, 0}, {2, 1}, {3, 1}, {0, 1}, {2, 0}, {3, 0}}},
          {"row_cluster", {0, 0, 1, 1}},
          {"col_cluster", {0, 1}},
          {"worker_s_per_nonzero", {1.0, 1.0}},
          {"go_s_per_nonzero", 0.25},
          {"throughput_bps", 8.0},
          {"bytes_per_value", 1}};
}

}  // namespace

TEST_CASE("fgcp: hand example, step by step", "[modnn][fgcp]") {
  // Initial (outliers by row cluster): worker 0 holds (0,0) (1,0) (0,1): 3 nnz, rows {0,1}, cols
  // {0,1} -> ET 3 + 4 = 7. Worker 1 holds (2,1) (3,1) (2,0) (3,0): 4 + 4 = 8. GO: 0 + 8 values = 8.
  // Step 1: worker 1 (ET 8) offloads column 0 ((2,0),(3,0)); rows 2, 3 keep (2,1), (3,1): worker 1
  //   -> 2 + 3 = 5, GO -> 2 * 0.25 + 7 = 7.5, ET 7.5 <= 8: accepted.
  // Step 2: worker 0 (ET 7) offloads column 1 ((0,1)); row 0 keeps (0,0): worker 0 -> 2 + 3 = 5,
  //   GO -> 3 * 0.25 + 6 = 6.75 <= 7.5: accepted.
  // Step 3: workers tie at 5 -> worker 0, which has no outlier left: stop. ET 6.75, 6 values.
  const auto p = hand_problem();
  const auto s = fgcp_partition(p);
  CHECK(s.unit == OffloadUnit::Column);
  CHECK(s.initial.worker_et_s == std::vector<double>{7.0, 8.0});
  CHECK(s.initial.go_et_s == 8.0);
  CHECK(s.initial.et_s == 8.0);
  CHECK(s.assignment == std::vector<int>{0, 0, 1, 1, kGroupOwner, kGroupOwner, kGroupOwner});
  CHECK(s.final.worker_et_s == std::vector<double>{5.0, 5.0});
  CHECK(s.final.go_et_s == 6.75);
  CHECK(s.final.et_s == 6.75);
  CHECK(s.offloaded_units == 2);
  CHECK(s.offloaded_nonzeros == 3);
  CHECK(s.initial.transfer_bytes == 8);
  CHECK(s.final.transfer_bytes == 6);
}

TEST_CASE("fgcp: a slow GO stops the offloading at once", "[modnn][fgcp]") {
  // GO at 1 s per non-zero: step 1 would make the GO 2 + 7 = 9 > 8. Nothing moves.
  auto p = hand_problem();
  p.go_s_per_nonzero = 1.0;
  const auto s = fgcp_partition(p);
  CHECK(s.offloaded_units == 0);
  CHECK(s.assignment == fgcp_initial_assignment(p));
  CHECK(s.final.et_s == s.initial.et_s);
}

TEST_CASE("fgcp: wide matrices assign outliers by column and offload rows", "[modnn][fgcp]") {
  // The transpose of the hand example (2 x 4) is the same problem with rows and columns swapped.
  auto p = hand_problem();
  FgcpProblem t = p;
  t.pattern.rows = 2;
  t.pattern.cols = 4;
  for (auto& e : t.pattern.entries) std::swap(e.row, e.col);
  std::swap(t.row_cluster, t.col_cluster);
  const auto s = fgcp_partition(t);
  CHECK(s.unit == OffloadUnit::Row);
  CHECK(s.assignment == fgcp_partition(p).assignment);
  CHECK(s.final.et_s == 6.75);
}

TEST_CASE("fgcp: every non-zero assigned once, inside ones stay, ET never rises (random)", "[modnn][fgcp]") {
  std::mt19937_64 rng(2024);
  int offloading_instances = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const auto p = random_problem(rng);
    const auto k = int(p.worker_s_per_nonzero.size());
    const auto s = fgcp_partition(p);
    REQUIRE(s.assignment.size() == p.pattern.entries.size());
    std::int64_t counted = s.final.go_nonzeros;
    for (const auto n : s.final.worker_nonzeros) counted += n;
    CHECK(counted == std::int64_t(p.pattern.entries.size()));  // each non-zero exactly once
    const auto initial = fgcp_initial_assignment(p);
    for (std::size_t e = 0; e < s.assignment.size(); ++e) {
      const auto& nz = p.pattern.entries[e];
      const int a = s.assignment[e];
      CHECK((a == kGroupOwner || (a >= 0 && a < k)));
      if (p.row_cluster[nz.row] == p.col_cluster[nz.col]) CHECK(a == p.row_cluster[nz.row]);  // inside
      if (a != kGroupOwner) CHECK(a == initial[e]);  // only moves are to the GO
    }
    // ET before vs after, both recomputed from scratch from the assignments.
    CHECK(fgcp_costs(p, s.assignment).et_s <= fgcp_costs(p, initial).et_s);
    CHECK(s.final.et_s == fgcp_costs(p, s.assignment).et_s);
    offloading_instances += s.offloaded_units > 0;
  }
  CHECK(offloading_instances > 50);  // the check above is not vacuous
}

TEST_CASE("fgcp: fgcp_costs by brute force on random assignments", "[modnn][fgcp]") {
  std::mt19937_64 rng(6);
  for (int trial = 0; trial < 200; ++trial) {
    const auto p = random_problem(rng);
    const auto k = int(p.worker_s_per_nonzero.size());
    std::vector<int> a;
    for (std::size_t e = 0; e < p.pattern.entries.size(); ++e)
      a.push_back(std::uniform_int_distribution<int>(-1, k - 1)(rng));
    const auto c = fgcp_costs(p, a);
    const double value_s = double(p.bytes_per_value) * 8.0 / p.throughput_bps;
    std::int64_t values = 0, go = 0;
    double worst = 0.0;
    for (int w = 0; w < k; ++w) {
      std::set<std::int64_t> rows, cols;
      std::int64_t nnz = 0;
      for (std::size_t e = 0; e < a.size(); ++e)
        if (a[e] == w) rows.insert(p.pattern.entries[e].row), cols.insert(p.pattern.entries[e].col), ++nnz;
      CHECK(c.worker_input_values[w] == std::int64_t(rows.size()));
      CHECK(c.worker_output_values[w] == std::int64_t(cols.size()));
      const double et = double(nnz) * p.worker_s_per_nonzero[w] + double(rows.size() + cols.size()) * value_s;
      CHECK(c.worker_et_s[w] == Approx(et));
      worst = std::max(worst, et);
      values += std::int64_t(rows.size() + cols.size());
    }
    for (const int x : a) go += x == kGroupOwner;
    const double go_et = double(go) * p.go_s_per_nonzero + double(values) * value_s;
    CHECK(c.go_et_s == Approx(go_et));
    CHECK(c.et_s == Approx(std::max(worst, go_et)));
    CHECK(c.transfer_bytes == values * p.bytes_per_value);
  }
}

TEST_CASE("fgcp solve: schema, MSCC when clusters are absent, errors", "[modnn][fgcp][solve]") {
  const auto s = solve_fgcp(hand_json());
  CHECK(s.at("offload_unit") == "column");
  CHECK(s.at("assignment") == Json::parse("[0,0,1,1,-1,-1,-1]"));
  CHECK(s.at("final_et_s") == 6.75);
  CHECK(s.at("initial_et_s") == 8.0);
  CHECK(s.at("transfer_bytes") == 6);

  auto via_mscc = hand_json();
  via_mscc.erase("row_cluster");
  via_mscc.erase("col_cluster");
  via_mscc["seed"] = 3;
  const auto m = solve_fgcp(via_mscc);
  CHECK(m.at("row_cluster").size() == 4);
  CHECK(m.at("final_et_s").get<double>() <= m.at("initial_et_s").get<double>());

  auto with = [](const std::string& key, const Json& value) {
    auto q = hand_json();
    q[key] = value;
    return q;
  };
  CHECK(error_path(with("row_cluster", {0, 0, 2, 1})) == "row_cluster[2]");  // k = 2
  CHECK(error_path(with("col_cluster", {0})) == "col_cluster");
  CHECK(error_path(with("throughput_bps", 0)) == "throughput_bps");
  CHECK(error_path(with("worker_s_per_nonzero", Json::array())) == "worker_s_per_nonzero");
  CHECK(error_path(with("go_s_per_nonzero", -1)) == "go_s_per_nonzero");
  CHECK(error_path(with("entries", {{0, 0}, {0, 5}})) == "entries[1][1]");
  auto half = hand_json();
  half.erase("col_cluster");
  CHECK(error_path(half) == "col_cluster");
}

TEST_CASE("fgcp solve: a throughput of 1e-300 bps or an hour per non-zero is out of range",
          "[modnn][fgcp][solve]") {
  // 64 bits / 1e-300 bps per value was an infinite ET; rates lie in [1, 1e12] bps, seconds per
  // non-zero in [0, 3600]
  auto with = [](const std::string& key, const Json& value) {
    auto q = hand_json();
    q[key] = value;
    return q;
  };
  CHECK(error_path(with("throughput_bps", 1e-300)) == "throughput_bps");
  CHECK(error_path(with("go_s_per_nonzero", 1e4)) == "go_s_per_nonzero");
  CHECK(error_path(with("worker_s_per_nonzero", {1.0, 1e300})) == "worker_s_per_nonzero[1]");
}
