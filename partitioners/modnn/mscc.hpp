#pragma once
/// MSCC, MoDNN's modified spectral co-clustering of a sparse fully-connected layer (Mao's MoDNN thesis
/// [MoDNN §5.2]; dissertation [Mao-PhD §2.2.4]), which is Dhillon's
/// bipartite spectral co-clustering (KDD 2001) of the binary connection matrix A (rows x cols):
///   1. D1 = diag(row degrees), D2 = diag(column degrees); A_n = D1^-1/2 A D2^-1/2.
///   2. l = ceil(log2 k); take the singular vectors u_2..u_{l+1}, v_2..v_{l+1} of A_n (the first pair
///      is the trivial one, singular value 1).
///   3. Z = [D1^-1/2 U; D2^-1/2 V] ((rows + cols) x l); k-means (k-means++ seeding, restarts, seeded)
///      on the rows of Z gives the cluster of every row and every column together.
/// The partial SVD is a Lanczos eigensolve (Spectra::SymEigsSolver, seeded start vector) of the
/// normal matrix A_n^T A_n (or A_n A_n^T, whichever is smaller) applied as two sparse products, so a
/// VGG-16 FC6-sized matrix (25088 x 4096, 96% sparse) takes seconds; small problems (smaller side
/// <= 400) use a dense symmetric eigensolver instead.
///
/// A non-zero (i, j) is INSIDE when row i and column j are in the same cluster, OUTSIDE otherwise.
/// Rows / columns without any non-zero take no part in the spectral step; each is then given to the
/// cluster that has the fewest rows (resp. columns) so far (ties: lower cluster), which changes
/// neither count.
///
/// Solve schema (`coinfer solve mscc P.json`):
///   problem  {"rows","cols": integers in [1, 2^24], "entries":[[i,j],..] (distinct, 0 <= i < rows,
///             0 <= j < cols) -- OR "matrix_file": a Matrix Market coordinate file (matrix_market.hpp;
///             relative to the problem file; rows / cols then optional and must match its size line),
///             "clusters": integer in [1, min(rows, cols, 1024)], "seed": integer >= 0;
///             optional "restarts" (k-means runs, default 10), "max_iterations" (per run, default 300),
///             "comment"}
///   solution {"row_cluster":[..rows], "col_cluster":[..cols], "inside":int, "outside":int}
#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

#include "partitioners/modnn/sparse_weights.hpp"

namespace coinfer::modnn {

struct MsccProblem {
  SparsePattern pattern;
  std::int64_t clusters = 2;
  std::uint64_t seed = 0;
  std::int64_t restarts = 10;
  std::int64_t max_iterations = 300;
};

struct MsccResult {
  std::vector<int> row_cluster;  ///< per row, in [0, clusters)
  std::vector<int> col_cluster;  ///< per column, in [0, clusters)
  std::int64_t inside = 0;
  std::int64_t outside = 0;
  std::vector<double> singular_values;  ///< sigma_1 .. sigma_{l+1} of A_n (empty when k = 1)
};

/// Counts (inside, outside) non-zeros for given labels (see the definition above).
std::pair<std::int64_t, std::int64_t> count_inside_outside(const SparsePattern& pattern,
                                                           const std::vector<int>& row_cluster,
                                                           const std::vector<int>& col_cluster);

/// Throws `InputError` naming the JSON path on a malformed problem (rows and cols at most 2^24). A
/// relative `matrix_file` is read from `base_dir` (empty: the working directory).
MsccProblem parse_mscc_problem(const Json& problem, const std::filesystem::path& base_dir = {});

/// Co-clusters rows and columns. Deterministic for a given problem (seed included). Throws `Error`
/// if clusters is outside [1, min(rows, cols)] or the eigensolver fails to converge.
///
///     auto r = mscc_cluster({generate_sparse_weights(spec).pattern, 4, 42});
MsccResult mscc_cluster(const MsccProblem& problem);

Json mscc_result_to_json(const MsccResult& result);

/// parse -> cluster -> JSON; the `mscc` solver.
Json solve_mscc_json(const Json& problem, const std::filesystem::path& base_dir = {});

}  // namespace coinfer::modnn
