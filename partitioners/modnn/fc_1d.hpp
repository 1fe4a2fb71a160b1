#pragma once
/// fc-1d: the baseline weight partition of a fully-connected layer used by the MoDNN thesis
/// ([MoDNN §7.3]; dissertation [Mao-PhD §2.3.3]): the weight matrix is
/// divided along its LONGER side (ties: rows) into consecutive, non-overlapping parts, one per worker,
/// sizes proportional to the workers' capabilities (equal by default; largest-remainder rounding).
///
/// Rows are the layer's inputs and columns its outputs (see sparse_weights.hpp). A worker holding
/// a part receives the inputs of the rows it uses and sends back the (partial) outputs of the
/// columns it uses; for a sparse matrix (entries given) only rows / columns with at least one
/// non-zero in the part count, for a dense one (no entries) every row / column of the part does:
///     transfer_bytes = sum_w (input_values[w] + output_values[w]) * bytes_per_value.
///
/// Solve schema (`coinfer solve fc-1d P.json`):
///   problem  {"rows","cols": integers >= 1, "workers": integer in [1, 1024] OR
///             "capabilities":[numbers > 0] (one per worker; not both), "bytes_per_value": integer
///             in [1, 8], optional "entries":[[row, col], ..] (sparse; distinct, in range)}
///   solution {"axis":"rows"|"cols", "ranges":[[b,e], ..], "input_values":[..], "output_values":[..],
///             "nonzeros":[..], "transfer_bytes":int}  (per worker, in order)
#include <cstdint>
#include <optional>
#include <vector>

#include "partitioners/modnn/bodp.hpp"
#include "partitioners/modnn/sparse_weights.hpp"

namespace coinfer::modnn {

enum class MatrixAxis { Rows, Cols };

struct Fc1dProblem {
  SparsePattern pattern;             ///< rows, cols; entries used only when `sparse`
  bool sparse = false;               ///< false: a dense matrix (entries ignored)
  std::vector<double> capabilities;  ///< one per worker, > 0
  std::int64_t bytes_per_value = 4;
};

struct Fc1dPlan {
  MatrixAxis axis = MatrixAxis::Rows;
  std::vector<IndexRange> ranges;           ///< per worker, along `axis`
  std::vector<std::int64_t> input_values;   ///< per worker: rows (inputs) it must receive
  std::vector<std::int64_t> output_values;  ///< per worker: columns (outputs) it sends back
  std::vector<std::int64_t> nonzeros;       ///< per worker: weights it multiplies
  std::int64_t transfer_bytes = 0;
};

/// Throws `InputError` naming the JSON path on a malformed problem (a sparse matrix's rows and cols
/// at most 2^24, a dense one's 2^31 - 1).
Fc1dProblem parse_fc_1d_problem(const Json& problem);

/// The 1-D split. Never throws for a problem from `parse_fc_1d_problem`; throws `Error` on bad
/// capabilities or entries outside the matrix.
///
///     auto plan = fc_1d_partition({{25088, 4096, {}}, false, {1, 1, 1, 1}, 4});   // rows split
Fc1dPlan fc_1d_partition(const Fc1dProblem& problem);

Json fc_1d_plan_to_json(const Fc1dPlan& plan);

/// parse -> partition -> JSON; the `fc-1d` solver.
Json solve_fc_1d_json(const Json& problem);

}  // namespace coinfer::modnn
