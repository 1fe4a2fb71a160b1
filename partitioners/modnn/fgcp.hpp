#pragma once
/// FGCP, MoDNN's fine-grain cross partition of the outliers left by MSCC (Mao's MoDNN
/// thesis [MoDNN §5.3, eq. 5.1]; dissertation [Mao-PhD §2.2.4, eq. 2.3]).
///
/// Setting: k workers and the group owner (GO). Cluster w of MSCC (rows R_w, columns C_w) runs on
/// worker w. Rows are the layer's inputs, columns its outputs (see sparse_weights.hpp). A node
/// holding a set of non-zeros must receive the input of every row and send back a (partial) output
/// for every column among them; the GO holds the whole input, so what it computes costs no transfer.
///
/// Algorithm (sec. 5.3, generalised to both orientations):
///   1. Orientation. If cols <= rows the outliers are assigned by their ROW's cluster (the worker
///      already receives that input) and the offload unit is a COLUMN; otherwise by their COLUMN's
///      cluster and the unit is a ROW ("since the number of its columns is smaller than its rows").
///   2. Initial assignment: inside non-zeros to their cluster's worker, outliers as in 1.
///   3. Repeat: take the worker w with the largest ET[w] (ties: lower index); among its initially
///      assigned outliers take the unit (column or row) with the fewest of them (ties: lower index)
///      and move all of worker w's outliers in that unit to the GO, if this does not raise the
///      estimated time ET (below); stop at the first move that would, or when w has no outliers left.
///
/// Estimated time (ET, sec. 3.3 "execution plus data delivery"; eq. 5.1 for the delivery: all the
/// non-overlapping input and output values cross the GO's radio at the WLAN throughput TPT):
///     value_s    = bytes_per_value * 8 / throughput_bps
///     ET[w]      = nonzeros[w] * worker_s_per_nonzero[w] + (inputs[w] + outputs[w]) * value_s
///     ET[GO]     = nonzeros[GO] * go_s_per_nonzero + sum_w (inputs[w] + outputs[w]) * value_s
///     ET         = max(ET[GO], max_w ET[w])
///     transfer_bytes = sum_w (inputs[w] + outputs[w]) * bytes_per_value
/// Each accepted move satisfies ET_after <= ET_before, so FGCP never raises ET.
///
/// Solve schema (`coinfer solve fgcp P.json`):
///   problem  {"rows","cols","entries":[[i,j],..] or "matrix_file" (as for mscc),
///             "worker_s_per_nonzero":[k numbers in [0, 3600]] (SpMV seconds per non-zero, one per
///             worker), "go_s_per_nonzero": number in [0, 3600], "throughput_bps": number in [1, 1e12],
///             rows and cols at most 2^24,
///             "bytes_per_value": integer in [1, 8],
///             and EITHER "row_cluster":[rows ints in [0,k)] + "col_cluster":[cols ints in [0,k)]
///             OR neither, then MSCC clusters with k = workers and optional "seed" (default 0);
///             optional "comment"}
///   solution {"offload_unit":"column"|"row", "assignment":[per entry: worker index, -1 = GO],
///             "row_cluster":[..], "col_cluster":[..], "worker_nonzeros":[..], "worker_input_values":[..],
///             "worker_output_values":[..], "worker_et_s":[..], "go_nonzeros":int, "go_et_s":number,
///             "initial_et_s":number, "final_et_s":number, "offloaded_units":int,
///             "offloaded_nonzeros":int, "initial_transfer_bytes":int, "transfer_bytes":int}
#include <cstdint>
#include <filesystem>
#include <vector>

#include "partitioners/modnn/sparse_weights.hpp"

namespace coinfer::modnn {

/// Node index of the group owner in an FGCP assignment.
inline constexpr int kGroupOwner = -1;

enum class OffloadUnit { Column, Row };

struct FgcpProblem {
  SparsePattern pattern;
  std::vector<int> row_cluster;              ///< per row, in [0, k)
  std::vector<int> col_cluster;              ///< per column, in [0, k)
  std::vector<double> worker_s_per_nonzero;  ///< k entries >= 0
  double go_s_per_nonzero = 0.0;             ///< >= 0
  double throughput_bps = 1.0;               ///< TPT, > 0
  std::int64_t bytes_per_value = 4;
};

/// Loads and ETs of one assignment (definitions in the header comment).
struct FgcpCosts {
  std::vector<std::int64_t> worker_nonzeros;
  std::vector<std::int64_t> worker_input_values;   ///< distinct rows per worker
  std::vector<std::int64_t> worker_output_values;  ///< distinct columns per worker
  std::vector<double> worker_et_s;
  std::int64_t go_nonzeros = 0;
  double go_et_s = 0.0;
  double et_s = 0.0;  ///< max over the GO and the workers
  std::int64_t transfer_bytes = 0;
};

struct FgcpSolution {
  OffloadUnit unit = OffloadUnit::Column;
  std::vector<int> assignment;  ///< per entry of the pattern: worker index or kGroupOwner
  FgcpCosts initial;            ///< costs of the initial assignment (step 2)
  FgcpCosts final;              ///< costs of `assignment`
  std::int64_t offloaded_units = 0;
  std::int64_t offloaded_nonzeros = 0;
};

/// Costs of any assignment (entries: worker index in [0, k) or kGroupOwner). Asserts the sizes.
FgcpCosts fgcp_costs(const FgcpProblem& problem, const std::vector<int>& assignment);

/// Step 2: inside non-zeros to their cluster, outliers by row (cols <= rows) or column cluster.
std::vector<int> fgcp_initial_assignment(const FgcpProblem& problem);

/// Throws `InputError` naming the JSON path on a malformed problem (runs MSCC when the clusters
/// are not given). A relative `matrix_file` is read from `base_dir` (empty: the working directory).
FgcpProblem parse_fgcp_problem(const Json& problem, const std::filesystem::path& base_dir = {});

/// The FGCP assignment. Throws `Error` when the problem's sizes disagree or a value is out of range.
///
///     auto s = fgcp_partition(problem);   // s.final.et_s <= s.initial.et_s
FgcpSolution fgcp_partition(const FgcpProblem& problem);

Json fgcp_solution_to_json(const FgcpProblem& problem, const FgcpSolution& solution);

/// parse -> partition -> JSON; the `fgcp` solver.
Json solve_fgcp_json(const Json& problem, const std::filesystem::path& base_dir = {});

}  // namespace coinfer::modnn
