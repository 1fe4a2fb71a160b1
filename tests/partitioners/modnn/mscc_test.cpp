#include "partitioners/modnn/mscc.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "tests/solve/solve_test_support.hpp"

#include "partitioners/modnn/register.hpp"
#include "sim/core/error.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

namespace {

/// Dense-ish diagonal blocks (given row / column sizes, in-block density) plus uniform noise equal
/// to `noise_fraction` of the in-block count, then rows and columns shuffled. Returns the pattern
/// and the true block of each row and column.
struct Planted {
  SparsePattern pattern;
  std::vector<int> row_block, col_block;
};

Planted planted_blocks(const std::vector<std::int64_t>& row_sizes, const std::vector<std::int64_t>& col_sizes,
                       double density, double noise_fraction, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Planted out;
  for (std::size_t b = 0; b < row_sizes.size(); ++b) {
    out.row_block.insert(out.row_block.end(), std::size_t(row_sizes[b]), int(b));
    out.col_block.insert(out.col_block.end(), std::size_t(col_sizes[b]), int(b));
  }
  const auto rows = std::int64_t(out.row_block.size()), cols = std::int64_t(out.col_block.size());
  std::set<std::pair<std::int64_t, std::int64_t>> cells;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      if (out.row_block[i] == out.col_block[j] && u(rng) < density) cells.insert({i, j});
  const auto noise = std::int64_t(noise_fraction * double(cells.size()));
  for (std::int64_t added = 0; added < noise;)
    added += cells.insert({std::int64_t(u(rng) * rows), std::int64_t(u(rng) * cols)}).second;
  std::vector<std::int64_t> rp(static_cast<std::size_t>(rows)), cp(static_cast<std::size_t>(cols));
  std::iota(rp.begin(), rp.end(), 0);
  std::iota(cp.begin(), cp.end(), 0);
  std::shuffle(rp.begin(), rp.end(), rng);
  std::shuffle(cp.begin(), cp.end(), rng);
  out.pattern.rows = rows;
  out.pattern.cols = cols;
  for (const auto& [i, j] : cells) out.pattern.entries.push_back({rp[i], cp[j]});
  std::vector<int> rb(out.row_block.size()), cb(out.col_block.size());
  for (std::int64_t i = 0; i < rows; ++i) rb[rp[i]] = out.row_block[i];
  for (std::int64_t j = 0; j < cols; ++j) cb[cp[j]] = out.col_block[j];
  out.row_block = rb;
  out.col_block = cb;
  return out;
}

/// Fraction of rows whose cluster is the majority cluster of their true block, with distinct
/// majority clusters for distinct blocks (1.0 = perfect recovery up to renaming).
double recovered_fraction(const std::vector<int>& truth, const std::vector<int>& found, int k) {
  std::vector<std::map<int, int>> votes(std::size_t(k) + 1);
  for (std::size_t i = 0; i < truth.size(); ++i) ++votes[truth[i]][found[i]];
  std::set<int> used;
  std::int64_t agree = 0;
  for (const auto& v : votes) {
    if (v.empty()) continue;
    const auto best =
        std::max_element(v.begin(), v.end(), [](auto& a, auto& b) { return a.second < b.second; });
    if (!used.insert(best->first).second) return 0.0;
    agree += best->second;
  }
  return double(agree) / double(truth.size());
}

Json solve_mscc(const Json& problem) {
  return coinfer::testing::solve_with(register_modnn_solvers, "mscc", problem);
}

std::string error_path(const Json& problem) {
  return coinfer::testing::input_error_path([&] { solve_mscc(problem); });
}

}  // namespace

TEST_CASE("mscc: count_inside_outside by hand", "[modnn][mscc]") {
  // Rows {0,1} in cluster 0, row 2 in 1; columns {0} in 0, {1} in 1. (0,0) (1,0) (2,1) inside;
  // (0,1) (2,0) outside.
  const SparsePattern p{3, 2, {{0, 0}, {1, 0}, {2, 1}, {0, 1}, {2, 0}}};
  CHECK(count_inside_outside(p, {0, 0, 1}, {0, 1}) == std::pair<std::int64_t, std::int64_t>{3, 2});
}

TEST_CASE("mscc: 4 planted blocks + 2% noise, >= 95% of non-zeros inside (dense eigensolver)",
          "[modnn][mscc]") {
  // Unequal block sizes, in-block density 0.3, noise = 2% of the in-block non-zeros at random.
  // The ideal co-clustering leaves only the noise outside (about 1.5% of the non-zeros).
  const auto planted = planted_blocks({40, 60, 80, 100}, {30, 45, 60, 75}, 0.3, 0.02, 123);
  const auto r = mscc_cluster({planted.pattern, 4, 9});
  const auto nnz = std::int64_t(planted.pattern.entries.size());
  CHECK(r.inside + r.outside == nnz);
  CHECK(double(r.inside) >= 0.95 * double(nnz));
  CHECK(recovered_fraction(planted.row_block, r.row_cluster, 4) > 0.99);
  CHECK(recovered_fraction(planted.col_block, r.col_cluster, 4) > 0.99);
  CHECK(r.singular_values.size() == 3);        // l = ceil(log2 4) = 2, vectors 1..l+1
  CHECK(r.singular_values[0] == Approx(1.0));  // the trivial pair of the normalised matrix
}

TEST_CASE("mscc: planted structure through the Lanczos (Spectra) path", "[modnn][mscc]") {
  // Smaller side 600 > 400 uses the sparse Lanczos eigensolver; 3 blocks, l = 2.
  const auto planted = planted_blocks({300, 350, 400}, {150, 200, 250}, 0.08, 0.02, 5);
  const auto r = mscc_cluster({planted.pattern, 3, 1});
  CHECK(double(r.inside) >= 0.95 * double(planted.pattern.entries.size()));
  CHECK(recovered_fraction(planted.row_block, r.row_cluster, 3) > 0.99);
  CHECK(r.singular_values[0] == Approx(1.0).epsilon(1e-6));
}

TEST_CASE("mscc: two clusters use one singular vector (l = 1)", "[modnn][mscc]") {
  const auto planted = planted_blocks({50, 70}, {40, 30}, 0.3, 0.02, 77);
  const auto r = mscc_cluster({planted.pattern, 2, 3});
  CHECK(r.singular_values.size() == 2);
  CHECK(double(r.inside) >= 0.95 * double(planted.pattern.entries.size()));
}

TEST_CASE("mscc: deterministic for a seed, labels in range, empty rows placed", "[modnn][mscc]") {
  auto planted = planted_blocks({20, 30, 25}, {15, 20, 25}, 0.3, 0.05, 8);
  planted.pattern.rows += 4;  // four rows without any non-zero
  const auto a = mscc_cluster({planted.pattern, 3, 11});
  const auto b = mscc_cluster({planted.pattern, 3, 11});
  CHECK(a.row_cluster == b.row_cluster);
  CHECK(a.col_cluster == b.col_cluster);
  CHECK(a.row_cluster.size() == std::size_t(planted.pattern.rows));
  for (const int c : a.row_cluster) CHECK((c >= 0 && c < 3));
  for (const int c : a.col_cluster) CHECK((c >= 0 && c < 3));
  CHECK(count_inside_outside(planted.pattern, a.row_cluster, a.col_cluster) ==
        std::pair<std::int64_t, std::int64_t>{a.inside, a.outside});
}

TEST_CASE("mscc: one cluster keeps every non-zero inside, no entries is fine", "[modnn][mscc]") {
  const SparsePattern p{3, 4, {{0, 0}, {2, 3}, {1, 1}}};
  const auto one = mscc_cluster({p, 1, 0});
  CHECK(one.inside == 3);
  CHECK(one.outside == 0);
  // No non-zeros: rows and columns spread over the clusters (0,1,0 / 0,1,0,1), nothing to count.
  const auto empty = mscc_cluster({SparsePattern{3, 4, {}}, 2, 0});
  CHECK(empty.row_cluster == std::vector<int>{0, 1, 0});
  CHECK(empty.col_cluster == std::vector<int>{0, 1, 0, 1});
  CHECK(empty.inside + empty.outside == 0);
}

TEST_CASE("mscc solve: exact schema", "[modnn][mscc][solve]") {
  // Two disconnected 2 x 2 blocks: a perfect split, nothing outside.
  const Json p = {{"rows", 4},
                  {"cols", 4},
                  {"entries", {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 2}, {2, 3}, {3, 2}, {3, 3}}},
                  {"clusters", 2},
                  {"seed", 1}};
  const auto s = solve_mscc(p);
  CHECK(s.size() == 4);
  CHECK(s.at("inside") == 8);
  CHECK(s.at("outside") == 0);
  const auto rows = s.at("row_cluster").get<std::vector<int>>();
  const auto cols = s.at("col_cluster").get<std::vector<int>>();
  CHECK(rows[0] == rows[1]);
  CHECK(rows[0] != rows[2]);
  CHECK(cols[0] == rows[0]);
  CHECK(cols[2] == rows[2]);
}

TEST_CASE("mscc solve: malformed problems name the JSON path", "[modnn][mscc][solve]") {
  const Json p = {{"rows", 4}, {"cols", 3}, {"entries", {{0, 0}, {3, 2}}}, {"clusters", 2}, {"seed", 1}};
  auto with = [&](const std::string& key, const Json& value) {
    auto q = p;
    q[key] = value;
    return q;
  };
  CHECK(error_path(with("entries", {{0, 0}, {4, 0}})) == "entries[1][0]");
  CHECK(error_path(with("entries", {{0, 0}, {0, -1}})) == "entries[1][1]");
  CHECK(error_path(with("entries", {{0, 0}, {1}})) == "entries[1]");
  CHECK(error_path(with("entries", {{1, 2}, {0, 0}, {1, 2}})) == "entries[2]");
  CHECK(error_path(with("entries", 3)) == "entries");
  CHECK(error_path(with("clusters", 0)) == "clusters");
  CHECK(error_path(with("clusters", 4)) == "clusters");  // > min(rows, cols) = 3
  CHECK(error_path(with("seed", -1)) == "seed");
  CHECK(error_path(with("rows", 0)) == "rows");
  CHECK(error_path(with("restarts", 0)) == "restarts");
  auto no_seed = p;
  no_seed.erase("seed");
  CHECK(error_path(no_seed) == "seed");
}

TEST_CASE("mscc solve: 2^31 - 1 rows are out of range before any allocation", "[modnn][mscc][solve]") {
  // per-row labels and points for 2^31 rows would take tens of GiB; rows and cols stop at 2^24
  const Json p = {
      {"rows", 2147483647}, {"cols", 3}, {"entries", {{0, 0}, {3, 2}}}, {"clusters", 2}, {"seed", 1}};
  CHECK(error_path(p) == "rows");
}
