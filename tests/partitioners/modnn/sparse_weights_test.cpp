#include "partitioners/modnn/sparse_weights.hpp"

#include <cmath>
#include <set>

#include <catch2/catch.hpp>

#include "partitioners/modnn/mscc.hpp"
#include "sim/core/error.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

TEST_CASE("sparse weights: every row keeps round((1 - s) * cols) distinct weights", "[modnn][weights]") {
  // 100 columns at 96% sparsity: 4 weights per row; 37 columns at 0.9: round(3.7) = 4.
  for (const auto& [cols, sparsity, keep] :
       {std::tuple{100, 0.96, 4}, std::tuple{37, 0.9, 4}, std::tuple{10, 0.0, 10}}) {
    const auto w = generate_sparse_weights({.rows = 50, .cols = cols, .sparsity = sparsity, .seed = 3});
    CHECK(w.pattern.entries.size() == std::size_t(50 * keep));
    CHECK(w.values.size() == w.pattern.entries.size());
    const auto d = row_degrees(w.pattern);
    for (const auto n : d) CHECK(n == keep);
    std::set<std::pair<std::int64_t, std::int64_t>> cells;
    for (const auto& e : w.pattern.entries) cells.insert({e.row, e.col});
    CHECK(cells.size() == w.pattern.entries.size());
  }
}

TEST_CASE("sparse weights: magnitude pruning keeps each row's largest weights", "[modnn][weights]") {
  // With sparsity 0 every weight is kept; with the same seed the pruned matrix keeps, in every row,
  // the `keep` weights of largest magnitude of that full row.
  const auto full = generate_sparse_weights({.rows = 20, .cols = 30, .sparsity = 0.0, .seed = 9});
  const auto pruned = generate_sparse_weights({.rows = 20, .cols = 30, .sparsity = 0.8, .seed = 9});
  for (std::int64_t i = 0; i < 20; ++i) {
    float smallest_kept = INFINITY, largest_dropped = 0.0f;
    std::set<std::int64_t> kept;
    for (std::size_t e = 0; e < pruned.values.size(); ++e)
      if (pruned.pattern.entries[e].row == i) {
        kept.insert(pruned.pattern.entries[e].col);
        smallest_kept = std::min(smallest_kept, std::fabs(pruned.values[e]));
      }
    for (std::size_t e = 0; e < full.values.size(); ++e)
      if (full.pattern.entries[e].row == i && !kept.count(full.pattern.entries[e].col))
        largest_dropped = std::max(largest_dropped, std::fabs(full.values[e]));
    CHECK(kept.size() == 6);
    CHECK(smallest_kept >= largest_dropped);
  }
}

TEST_CASE("sparse weights: deterministic, seed sensitive", "[modnn][weights]") {
  const SparseWeightsSpec spec{.rows = 40, .cols = 60, .sparsity = 0.9, .seed = 5};
  const auto a = generate_sparse_weights(spec), b = generate_sparse_weights(spec);
  CHECK(a.pattern.entries == b.pattern.entries);
  CHECK(a.values == b.values);
  auto other = spec;
  other.seed = 6;
  CHECK(generate_sparse_weights(other).pattern.entries != a.pattern.entries);
}

TEST_CASE("sparse weights: planted blocks survive pruning and shuffling, MSCC finds them",
          "[modnn][weights]") {
  // 4 blocks, in-block std 4x: at 95% sparsity (15 of 300 per row, 75 in-block columns) almost all
  // kept weights are in-block (an out-of-block weight must beat the in-block top 20%).
  const auto w = generate_sparse_weights({.rows = 400,
                                          .cols = 300,
                                          .sparsity = 0.95,
                                          .seed = 2,
                                          .planted_blocks = 4,
                                          .block_scale = 4.0,
                                          .shuffle = true});
  REQUIRE(w.row_block.size() == 400);
  std::int64_t in_block = 0;
  for (const auto& e : w.pattern.entries) in_block += w.row_block[e.row] == w.col_block[e.col];
  CHECK(double(in_block) > 0.97 * double(w.pattern.entries.size()));
  // Rows of block 0 are no longer the first 100 rows after shuffling.
  int first_rows_in_block0 = 0;
  for (int i = 0; i < 100; ++i) first_rows_in_block0 += w.row_block[i] == 0;
  CHECK(first_rows_in_block0 < 60);
  const auto r = mscc_cluster({w.pattern, 4, 1});
  CHECK(double(r.inside) >= 0.95 * double(w.pattern.entries.size()));
}

TEST_CASE("sparse weights: bad specs throw", "[modnn][weights]") {
  CHECK_THROWS_AS(generate_sparse_weights({.rows = 0, .cols = 3}), Error);
  CHECK_THROWS_AS(generate_sparse_weights({.rows = 3, .cols = 3, .sparsity = 1.0}), Error);
  CHECK_THROWS_AS(generate_sparse_weights({.rows = 3, .cols = 3, .sparsity = 0.5, .planted_blocks = 4}),
                  Error);
  CHECK_THROWS_AS(generate_sparse_weights({.rows = 3, .cols = 3, .sparsity = 0.5, .block_scale = 0.5}),
                  Error);
}
