#include "partitioners/modnn/sparse_weights.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "partitioners/modnn/matrix_market.hpp"
#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

constexpr std::int64_t kMaxWeightsDimension = 2147483647;  // indices are stored as int in cluster labels

void check_spec(const SparseWeightsSpec& spec) {
  if (spec.rows < 1 || spec.cols < 1 || spec.rows > kMaxWeightsDimension || spec.cols > kMaxWeightsDimension)
    throw Error(fmt::format("sparse weights: rows and cols must be in [1, 2^31-1], got {} x {}", spec.rows,
                            spec.cols));
  if (!(spec.sparsity >= 0.0 && spec.sparsity < 1.0))
    throw Error(fmt::format("sparse weights: sparsity must be in [0, 1), got {}", spec.sparsity));
  if (spec.planted_blocks < 0 || spec.planted_blocks > std::min(spec.rows, spec.cols))
    throw Error(fmt::format("sparse weights: planted_blocks must be in [0, min(rows, cols)], got {}",
                            spec.planted_blocks));
  if (!(spec.block_scale >= 1.0) || !std::isfinite(spec.block_scale))
    throw Error(
        fmt::format("sparse weights: block_scale must be a finite number >= 1, got {}", spec.block_scale));
}

/// Block of index i when n indices are split evenly into b blocks (block sizes differ by at most 1).
int even_block(std::int64_t i, std::int64_t n, std::int64_t b) { return static_cast<int>(i * b / n); }

/// A seeded uniformly random permutation of 0..n-1.
std::vector<std::int64_t> random_permutation(std::int64_t n, std::mt19937_64& rng) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  return perm;
}

std::int64_t entry_index(const Json& v, const std::string& path, std::int64_t size) {
  return json_as_int(v, path, 0, size - 1);
}

/// The `matrix_file` branch of parse_sparse_pattern.
SparsePattern pattern_from_file(const Json& problem, const std::string& path, const PatternSource& source) {
  const auto key = join_path(path, "matrix_file");
  if (json_find(problem, "entries", path))
    throw InputError("", join_path(path, "entries"), "expected either entries or matrix_file, not both");
  const auto name = json_string(problem, "matrix_file", path);
  if (name.empty()) throw InputError("", key, "expected a file name");
  // rows / cols are optional; when given they are checked first and must match the size line.
  std::int64_t size[2] = {0, 0};
  const char* names[2] = {"rows", "cols"};
  for (int k = 0; k < 2; ++k)
    if (json_find(problem, names[k], path))
      size[k] = json_int(problem, names[k], path, 1, source.max_dimension);
  std::filesystem::path file(name);
  if (file.is_relative() && !source.base_dir.empty()) file = source.base_dir / file;
  SparsePattern p;
  try {
    p = read_sparse_pattern_mtx(file.string(), source.max_dimension);
  } catch (const InputError& e) {
    throw InputError("", key, e.what());  // `matrix_file: fc6.mtx: line 7: ...`
  }
  const std::int64_t read[2] = {p.rows, p.cols};
  for (int k = 0; k < 2; ++k)
    if (size[k] != 0 && size[k] != read[k])
      throw InputError("", join_path(path, names[k]),
                       fmt::format("{} differs from the size line of {} ({} x {})", size[k], file.string(),
                                   p.rows, p.cols));
  return p;
}

}  // namespace

SparseWeights generate_sparse_weights(const SparseWeightsSpec& spec) {
  check_spec(spec);
  std::mt19937_64 rng(spec.seed);
  std::normal_distribution<float> gaussian(0.0f, 1.0f);
  const auto keep = static_cast<std::int64_t>(std::llround((1.0 - spec.sparsity) * double(spec.cols)));
  const auto blocks = spec.planted_blocks;

  SparseWeights out;
  out.pattern.rows = spec.rows;
  out.pattern.cols = spec.cols;
  out.pattern.entries.reserve(static_cast<std::size_t>(keep * spec.rows));
  out.values.reserve(out.pattern.entries.capacity());
  std::vector<float> row_values(static_cast<std::size_t>(spec.cols));
  std::vector<std::int64_t> order(static_cast<std::size_t>(spec.cols));
  for (std::int64_t i = 0; i < spec.rows; ++i) {
    const int rb = blocks > 0 ? even_block(i, spec.rows, blocks) : -1;
    for (std::int64_t j = 0; j < spec.cols; ++j) {
      const bool in_block = blocks > 0 && even_block(j, spec.cols, blocks) == rb;
      row_values[j] = gaussian(rng) * (in_block ? static_cast<float>(spec.block_scale) : 1.0f);
    }
    // Magnitude pruning of this row: keep the `keep` largest |w| (ties: lower column first).
    std::iota(order.begin(), order.end(), 0);
    auto larger = [&](std::int64_t a, std::int64_t b) {
      const float fa = std::fabs(row_values[a]), fb = std::fabs(row_values[b]);
      return fa != fb ? fa > fb : a < b;
    };
    std::nth_element(order.begin(), order.begin() + keep, order.end(), larger);
    std::sort(order.begin(), order.begin() + keep);
    for (std::int64_t t = 0; t < keep; ++t) {
      out.pattern.entries.push_back({i, order[t]});
      out.values.push_back(row_values[order[t]]);
    }
  }
  if (blocks > 0) {
    out.row_block.resize(static_cast<std::size_t>(spec.rows));
    out.col_block.resize(static_cast<std::size_t>(spec.cols));
    for (std::int64_t i = 0; i < spec.rows; ++i) out.row_block[i] = even_block(i, spec.rows, blocks);
    for (std::int64_t j = 0; j < spec.cols; ++j) out.col_block[j] = even_block(j, spec.cols, blocks);
  }
  if (!spec.shuffle) return out;

  // Rename row i -> row_perm[i] and column j -> col_perm[j], then restore the (row, col) order. A
  // row moves whole, so the rows are taken in their new order and only each row's `keep` entries
  // are sorted, by their new column.
  const auto row_perm = random_permutation(spec.rows, rng);
  const auto col_perm = random_permutation(spec.cols, rng);
  std::vector<std::int64_t> source_row(static_cast<std::size_t>(spec.rows));
  for (std::int64_t i = 0; i < spec.rows; ++i) source_row[row_perm[i]] = i;
  SparseWeights shuffled;
  shuffled.pattern.rows = spec.rows;
  shuffled.pattern.cols = spec.cols;
  shuffled.pattern.entries.reserve(out.pattern.entries.size());
  shuffled.values.reserve(out.values.size());
  std::vector<std::pair<std::int64_t, float>> row(static_cast<std::size_t>(keep));
  for (std::int64_t r = 0; r < spec.rows; ++r) {
    const auto first = static_cast<std::size_t>(source_row[r] * keep);
    for (std::int64_t t = 0; t < keep; ++t)
      row[t] = {col_perm[out.pattern.entries[first + t].col], out.values[first + t]};
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [col, value] : row) {
      shuffled.pattern.entries.push_back({r, col});
      shuffled.values.push_back(value);
    }
  }
  if (blocks > 0) {
    shuffled.row_block.resize(out.row_block.size());
    shuffled.col_block.resize(out.col_block.size());
    for (std::int64_t i = 0; i < spec.rows; ++i) shuffled.row_block[row_perm[i]] = out.row_block[i];
    for (std::int64_t j = 0; j < spec.cols; ++j) shuffled.col_block[col_perm[j]] = out.col_block[j];
  }
  return shuffled;
}

SparsePattern parse_sparse_pattern(const Json& problem, const std::string& path,
                                   const PatternSource& source) {
  if (json_find(problem, "matrix_file", path)) return pattern_from_file(problem, path, source);
  SparsePattern p;
  p.rows = json_int(problem, "rows", path, 1, source.max_dimension);
  p.cols = json_int(problem, "cols", path, 1, source.max_dimension);
  const Json& list = json_at(problem, "entries", path);
  const auto list_path = join_path(path, "entries");
  if (!list.is_array()) throw InputError("", list_path, "expected an array of [row, col] pairs");
  p.entries.reserve(list.size());
  for (std::size_t e = 0; e < list.size(); ++e) {
    const auto ep = index_path(list_path, e);
    const Json& pair = list[e];
    if (!pair.is_array() || pair.size() != 2) throw InputError("", ep, "expected a [row, col] pair");
    p.entries.push_back(
        {entry_index(pair[0], index_path(ep, 0), p.rows), entry_index(pair[1], index_path(ep, 1), p.cols)});
  }
  // Duplicates: sort entry numbers by (row, col, number) and compare neighbours.
  std::vector<std::size_t> idx(p.entries.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    const auto &x = p.entries[a], &y = p.entries[b];
    if (x.row != y.row) return x.row < y.row;
    if (x.col != y.col) return x.col < y.col;
    return a < b;
  });
  for (std::size_t t = 1; t < idx.size(); ++t)
    if (p.entries[idx[t]] == p.entries[idx[t - 1]])
      throw InputError("", index_path(list_path, idx[t]),
                       fmt::format("duplicate of {}", index_path("entries", idx[t - 1])));
  return p;
}

SparsePattern read_sparse_pattern_mtx(const std::string& file, std::int64_t max_dimension) {
  auto m = read_matrix_market(file, {.max_dimension = max_dimension, .keep_values = false});
  return {m.rows, m.cols, std::move(m.entries)};
}

SparseWeights read_sparse_weights_mtx(const std::string& file) {
  auto m = read_matrix_market(file, {.max_dimension = kMaxWeightsDimension,
                                     .max_abs_value = double(std::numeric_limits<float>::max())});
  SparseWeights w;
  w.pattern = {m.rows, m.cols, std::move(m.entries)};
  if (m.values.empty()) {
    w.values.assign(w.pattern.entries.size(), 1.0f);
  } else {
    w.values.reserve(m.values.size());
    for (const double v : m.values) w.values.push_back(static_cast<float>(v));
  }
  return w;
}

std::string sparse_weights_mtx_text(const SparseWeights& weights, std::string_view comment) {
  return matrix_market_text(weights.pattern, &weights.values, comment);
}

void check_pattern_bounds(const SparsePattern& pattern) {
  if (pattern.rows < 1 || pattern.cols < 1 || pattern.rows > kMaxWeightsDimension ||
      pattern.cols > kMaxWeightsDimension)
    throw Error(fmt::format("sparse pattern: size {} x {} outside [1, 2^31-1]", pattern.rows, pattern.cols));
  for (const auto& e : pattern.entries)
    if (e.row < 0 || e.row >= pattern.rows || e.col < 0 || e.col >= pattern.cols)
      throw Error(fmt::format("sparse pattern: entry ({}, {}) outside {} x {}", e.row, e.col, pattern.rows,
                              pattern.cols));
}

Json entries_to_json(const std::vector<NonZero>& entries) {
  Json out = Json::array();
  for (const auto& e : entries) out.push_back({e.row, e.col});
  return out;
}

std::vector<std::int64_t> row_degrees(const SparsePattern& pattern) {
  std::vector<std::int64_t> d(static_cast<std::size_t>(pattern.rows), 0);
  for (const auto& e : pattern.entries) ++d[e.row];
  return d;
}

std::vector<std::int64_t> col_degrees(const SparsePattern& pattern) {
  std::vector<std::int64_t> d(static_cast<std::size_t>(pattern.cols), 0);
  for (const auto& e : pattern.entries) ++d[e.col];
  return d;
}

}  // namespace coinfer::modnn
