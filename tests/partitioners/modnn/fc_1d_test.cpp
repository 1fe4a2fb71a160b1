#include "partitioners/modnn/fc_1d.hpp"

#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "tests/solve/solve_test_support.hpp"

#include "partitioners/modnn/register.hpp"
#include "sim/core/error.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

namespace {

Json solve_fc(const Json& problem) {
  return coinfer::testing::solve_with(register_modnn_solvers, "fc-1d", problem);
}

std::string error_path(const Json& problem) {
  return coinfer::testing::input_error_path([&] { solve_fc(problem); });
}

}  // namespace

TEST_CASE("fc-1d: dense matrix split along its longer side", "[modnn][fc1d]") {
  // 10 x 4, 2 workers: rows are longer -> [0,5) [5,10). Each receives 5 inputs and returns 4
  // partial outputs: (5 + 4) * 2 workers * 4 bytes = 72 bytes.
  const auto plan = fc_1d_partition({{10, 4, {}}, false, {1, 1}, 4});
  CHECK(plan.axis == MatrixAxis::Rows);
  CHECK(plan.ranges == std::vector<IndexRange>{{0, 5}, {5, 10}});
  CHECK(plan.input_values == std::vector<std::int64_t>{5, 5});
  CHECK(plan.output_values == std::vector<std::int64_t>{4, 4});
  CHECK(plan.nonzeros == std::vector<std::int64_t>{20, 20});
  CHECK(plan.transfer_bytes == 72);
  // 3 x 7 with 3 workers: columns longer -> 7 by thirds {3,2,2}; each receives all 3 inputs:
  // (3+3) + (3+2) + (3+2) = 16 values * 2 bytes = 32.
  const auto wide = fc_1d_partition({{3, 7, {}}, false, {1, 1, 1}, 2});
  CHECK(wide.axis == MatrixAxis::Cols);
  CHECK(wide.ranges == std::vector<IndexRange>{{0, 3}, {3, 5}, {5, 7}});
  CHECK(wide.transfer_bytes == 32);
}

TEST_CASE("fc-1d: sparse matrix counts only the rows and columns a part uses", "[modnn][fc1d]") {
  // 6 x 3, 2 workers, rows [0,3) and [3,6). Part 0 holds (0,0) (2,0) (2,2): rows {0,2}, cols {0,2}.
  // Part 1 holds (4,1): rows {4}, cols {1}. (2+2 + 1+1) * 4 bytes = 24.
  const auto plan = fc_1d_partition({{6, 3, {{0, 0}, {2, 0}, {2, 2}, {4, 1}}}, true, {1, 1}, 4});
  CHECK(plan.input_values == std::vector<std::int64_t>{2, 1});
  CHECK(plan.output_values == std::vector<std::int64_t>{2, 1});
  CHECK(plan.nonzeros == std::vector<std::int64_t>{3, 1});
  CHECK(plan.transfer_bytes == 24);
}

TEST_CASE("fc-1d: parts cover the matrix and every non-zero once (random, brute force)", "[modnn][fc1d]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
      return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    Fc1dProblem p;
    p.pattern.rows = pick(1, 30);
    p.pattern.cols = pick(1, 30);
    p.sparse = true;
    std::set<std::pair<std::int64_t, std::int64_t>> cells;
    for (auto n = pick(0, 60); n > 0; --n)
      cells.insert({pick(0, p.pattern.rows - 1), pick(0, p.pattern.cols - 1)});
    for (const auto& [r, c] : cells) p.pattern.entries.push_back({r, c});
    for (auto w = pick(1, 5); w > 0; --w) p.capabilities.push_back(double(pick(1, 4)));
    p.bytes_per_value = pick(1, 8);
    const auto plan = fc_1d_partition(p);
    const bool by_rows = p.pattern.rows >= p.pattern.cols;
    CHECK((plan.axis == MatrixAxis::Rows) == by_rows);
    std::int64_t next = 0, nnz = 0, values = 0;
    for (std::size_t w = 0; w < plan.ranges.size(); ++w) {
      CHECK(plan.ranges[w].begin == next);
      next = plan.ranges[w].end;
      std::set<std::int64_t> rows, cols;
      for (const auto& e : p.pattern.entries) {
        const auto x = by_rows ? e.row : e.col;
        if (x >= plan.ranges[w].begin && x < plan.ranges[w].end) rows.insert(e.row), cols.insert(e.col);
      }
      CHECK(plan.input_values[w] == std::int64_t(rows.size()));
      CHECK(plan.output_values[w] == std::int64_t(cols.size()));
      nnz += plan.nonzeros[w];
      values += plan.input_values[w] + plan.output_values[w];
    }
    CHECK(next == (by_rows ? p.pattern.rows : p.pattern.cols));
    CHECK(nnz == std::int64_t(p.pattern.entries.size()));
    CHECK(plan.transfer_bytes == values * p.bytes_per_value);
  }
}

TEST_CASE("fc-1d solve: schema and errors", "[modnn][fc1d][solve]") {
  const Json p = {{"rows", 10}, {"cols", 4}, {"workers", 2}, {"bytes_per_value", 4}};
  const auto s = solve_fc(p);
  CHECK(s.at("axis") == "rows");
  CHECK(s.at("ranges") == Json::parse("[[0,5],[5,10]]"));
  CHECK(s.at("transfer_bytes") == 72);
  auto both = p;
  both["capabilities"] = {1, 2};
  CHECK(error_path(both) == "workers");
  auto bad_cap = p;
  bad_cap.erase("workers");
  bad_cap["capabilities"] = {1, -2};
  CHECK(error_path(bad_cap) == "capabilities[1]");
  auto bad_entry = p;
  bad_entry["entries"] = {{0, 0}, {3, 4}};
  CHECK(error_path(bad_entry) == "entries[1][1]");
  auto dup = p;
  dup["entries"] = {{0, 0}, {1, 1}, {0, 0}};
  CHECK(error_path(dup) == "entries[2]");
}
