#pragma once
/// Sparse fully-connected weight matrices for MoDNN's FC partitioners (MSCC, FGCP, fc-1d).
///
/// Convention used by every MoDNN FC core: an FC layer's weight matrix has `rows` x `cols`
/// entries; ROW i is INPUT neuron i and COLUMN j is OUTPUT neuron j (y_j = sum_i A_ij x_i), so a
/// node that holds a set of non-zeros must receive the inputs of their rows and send back the
/// (partial) outputs of their columns. VGG-16's FC6 is then 25088 x 4096.
///
/// No pretrained (pruned) weights are reachable in this project, so `generate_sparse_weights`
/// makes them: i.i.d. Gaussian weights magnitude-pruned per row to a target sparsity, optionally
/// with a planted block-diagonal structure (weights inside the blocks drawn with a larger standard
/// deviation, so pruning keeps mostly in-block weights). Every result that depends on these
/// weights must say so.
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer::modnn {

/// One non-zero of a weight matrix (0-based indices).
struct NonZero {
  std::int64_t row = 0;
  std::int64_t col = 0;

  bool operator==(const NonZero&) const = default;
};

/// The binary connection pattern of a sparse weight matrix (the "A" of MSCC).
struct SparsePattern {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<NonZero> entries;  ///< distinct, each inside rows x cols; any order
};

/// Parameters of the generator.
struct SparseWeightsSpec {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  double sparsity = 0.9;  ///< fraction of ZERO weights in [0, 1); each row keeps round((1-s)*cols)
  std::uint64_t seed = 0;
  std::int64_t planted_blocks = 0;  ///< 0: no structure; b > 0: b diagonal blocks (even split)
  double block_scale = 4.0;         ///< std of in-block weights relative to the others (>= 1)
  bool shuffle = false;             ///< permute rows and columns (seeded) to hide the blocks
};

/// A generated sparse weight matrix: `values[e]` is the weight of `pattern.entries[e]`; entries are
/// sorted by (row, col). With planted blocks, `row_block` / `col_block` hold the block of every
/// row / column (empty otherwise).
struct SparseWeights {
  SparsePattern pattern;
  std::vector<float> values;
  std::vector<int> row_block;
  std::vector<int> col_block;
};

/// Seeded Gaussian weights magnitude-pruned per row (keeps the round((1-sparsity)*cols) largest
/// |w| of each row). Deterministic for a given spec. Throws `Error` on a spec outside its documented
/// ranges (sizes >= 1, sparsity in [0, 1), planted_blocks <= min(rows, cols), block_scale >= 1).
///
///     auto w = generate_sparse_weights({.rows = 25088, .cols = 4096, .sparsity = 0.96, .seed = 1});
SparseWeights generate_sparse_weights(const SparseWeightsSpec& spec);

/// Where a problem's pattern may come from, and its size limit.
struct PatternSource {
  std::filesystem::path base_dir;           ///< a relative `matrix_file` is relative to it ("": cwd)
  std::int64_t max_dimension = 2147483647;  ///< rows and cols in [1, max_dimension]
};

/// Reads a problem's sparse pattern at `path`: EITHER `entries` ([[row, col], ...], 0-based) with
/// `rows` and `cols` (integers in [1, max_dimension]), OR `matrix_file`, a Matrix Market coordinate
/// file (matrix_market.hpp; entries in file order), whose size line gives rows and cols (`rows` /
/// `cols`, if also given, must agree). Throws `InputError` naming the JSON path for a malformed
/// entry (`entries[3][1]: expected an integer in [0, 4095], got 5000`), a duplicate
/// (`entries[7]: duplicate of entries[2]`) or a bad file (`matrix_file: fc6.mtx: line 7: row 5001
/// outside [1, 4096]`).
SparsePattern parse_sparse_pattern(const Json& problem, const std::string& path = "",
                                   const PatternSource& source = {});

/// The pattern of a Matrix Market file (values, if any, checked and dropped). Throws `InputError`
/// (`fc6.mtx: line 7: ...`).
SparsePattern read_sparse_pattern_mtx(const std::string& file, std::int64_t max_dimension = 2147483647);

/// Sparse weights from a Matrix Market file: `real` / `integer` values as fp32 (a value beyond
/// +-3.4e38 is out of range), `pattern` as 1; no planted blocks. Throws `InputError`.
///
///     auto w = read_sparse_weights_mtx("fc6.mtx");   // w.pattern, w.values
SparseWeights read_sparse_weights_mtx(const std::string& file);

/// The weights as a `real general` Matrix Market text (values read back bit for bit); write it
/// with `write_file_atomic`.
std::string sparse_weights_mtx_text(const SparseWeights& weights, std::string_view comment = {});

/// Throws `Error` unless rows, cols >= 1 and every entry lies inside rows x cols (duplicates are not
/// checked here; `parse_sparse_pattern` rejects them). The cores call it on their inputs.
void check_pattern_bounds(const SparsePattern& pattern);

/// `[[row, col], ...]` in entry order.
Json entries_to_json(const std::vector<NonZero>& entries);

/// Number of non-zeros in each row / column.
std::vector<std::int64_t> row_degrees(const SparsePattern& pattern);
std::vector<std::int64_t> col_degrees(const SparsePattern& pattern);

}  // namespace coinfer::modnn
