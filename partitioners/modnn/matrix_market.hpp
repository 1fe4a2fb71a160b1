#pragma once
/// Matrix Market coordinate files (`.mtx`, NIST's exchange format for sparse matrices): the fast
/// way to hand MoDNN's FC cores (`mscc`, `fgcp`, sparse weights) a large sparse matrix. A VGG-16
/// FC6 pattern at 96% sparsity (4.1 M non-zeros) is a 45 MB file that parses in a fraction of a
/// second, where the same `[[i, j], ...]` JSON list is 50 MB and takes seconds and hundreds of MiB.
///
/// Accepted: `%%MatrixMarket matrix coordinate <field> <symmetry>` with field `pattern`, `real`,
/// `double` (= real) or `integer`, and symmetry `general`, `symmetric` or `skew-symmetric` (not
/// with `pattern`); keywords case-insensitive. Then `%` comment lines, the size line
/// `rows cols entries`, and one `row col [value]` line per entry (1-based indices). Blank lines
/// and `%` lines may appear anywhere after the header. A symmetric file stores its lower triangle
/// (row >= col; skew-symmetric: row > col) and every off-diagonal entry is expanded to its mirror.
/// Not accepted: `array` (dense) files, `complex` and `hermitian`.
///
/// Every bad input is one `InputError(file, "line N", ...)`: a missing or malformed header, an
/// unsupported format / field / symmetry, a malformed size line, a size outside [1, max_dimension],
/// more entries than rows x cols (the stored triangle when symmetric), an entry with the wrong
/// number of fields, an index outside the matrix, an entry above the diagonal of a symmetric file,
/// a value that is not a finite number (`1e400`: `number out of range`; an integer beyond int64:
/// `integer out of range`) or is beyond max_abs_value, a duplicate entry (naming the line of the first), and
/// an entry count that differs from the size line (`line 9: the file ends after 5 of the 6 entries ...`).
///
///     auto m = read_matrix_market("fc6.mtx", {.max_dimension = 1 << 24});   // m.rows, m.entries
///     write_file_atomic("fc6.mtx", matrix_market_text(pattern));
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partitioners/modnn/sparse_weights.hpp"

namespace coinfer::modnn {

enum class MatrixMarketField { kPattern, kReal, kInteger };
enum class MatrixMarketSymmetry { kGeneral, kSymmetric, kSkewSymmetric };

/// A parsed coordinate file. `entries` (0-based) are in file order; in a symmetric file each
/// off-diagonal entry is directly followed by its mirror (skew-symmetric: with the value negated).
struct MatrixMarket {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  MatrixMarketField field = MatrixMarketField::kPattern;
  MatrixMarketSymmetry symmetry = MatrixMarketSymmetry::kGeneral;
  std::vector<NonZero> entries;
  std::vector<double> values;  ///< one per entry; empty for `pattern` or when not kept
};

struct MatrixMarketOptions {
  std::int64_t max_dimension = 2147483647;        ///< rows, cols in [1, max_dimension <= 2^31-1]
  bool keep_values = true;                        ///< false: values are checked, then dropped
  bool allow_duplicates = false;                  ///< true: repeated (row, col) entries are kept as they are
  double max_abs_value = 1.7976931348623157e308;  ///< values in [-max_abs_value, max_abs_value]
};

/// Parses the text of a Matrix Market file; `file` names it in errors. Throws `InputError`.
MatrixMarket parse_matrix_market(std::string_view text, const std::string& file,
                                 const MatrixMarketOptions& options = {});

/// Reads and parses `file` (one read of the whole file). Throws `InputError` when it cannot be read
/// or is malformed.
MatrixMarket read_matrix_market(const std::string& file, const MatrixMarketOptions& options = {});

/// A `general` coordinate file of `pattern` (1-based, in entry order): `pattern` when `values` is
/// null, else `real` with values[e] for entry e, printed with 9 significant digits so that a float
/// reads back bit for bit. `comment` (may hold newlines) becomes `%` lines after the header.
std::string matrix_market_text(const SparsePattern& pattern, const std::vector<float>* values = nullptr,
                               std::string_view comment = {});

}  // namespace coinfer::modnn
