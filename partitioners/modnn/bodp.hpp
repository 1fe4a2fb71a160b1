#pragma once
/// BODP, MoDNN's Biased One-Dimensional Partition of a convolutional layer (Mao's MoDNN
/// thesis [MoDNN §4.2, eq. 4.1]; dissertation [Mao-PhD §2.2.3]).
///
/// The output feature map is cut along the LONGER of the input's height and width (ties: height)
/// into one stripe per node, stripe sizes proportional to the nodes' computing abilities CA[i]
/// (largest-remainder rounding, so each stripe is within one row of its exact share
/// O * CA[i] / sum CA). Node i computes output rows [b_i, e_i) and needs the input rows of their
/// receptive field, [b_i*stride - padding, (e_i-1)*stride - padding + kernel) clipped to the input
/// (tightened when the first / last outputs of the stripe read padding only, see `receptive_range`).
/// (The chaining of the following non-overlapping layers onto the same stripe is not part of this
/// core.)
///
/// Transfer (halo) definition. Node i OWNS the input rows of the same proportional split applied to
/// the input axis (what it holds when the previous layer was split the same way); its HALO is the set
/// of input rows it needs but does not own:
///     halo_rows[i]   = |input_range[i] \ owned_range[i]|
///     transfer_bytes = sum_i halo_rows[i] * (other spatial size) * channels * bytes_per_value
/// i.e. every halo row each node must receive is counted once per receiving node. With stride 1,
/// "same" padding p = (F-1)/2 and equal CA every interior boundary costs F-1 rows in total, which
/// is eq. 4.1: W_trans = min(H, W) * C * (F - 1) * Z per neighbouring pair.
///
/// Solve schema (`coinfer solve bodp P.json`):
///   problem  {"height","width","channels","kernel","stride","padding","filters",
///             "capabilities":[CA_0, ..], "bytes_per_value"}
///            height, width, channels, filters, kernel, stride: integers in [1, 65536];
///            padding: integer in [0, 65536]; capabilities: 1..1024 finite numbers > 0;
///            bytes_per_value: integer in [1, 8]; kernel <= min(height, width) + 2 * padding.
///            Optional "comment" (ignored).
///   solution {"axis":"height"|"width", "output_ranges":[[begin,end),..], "input_ranges":[[begin,end),..],
///             "transfer_bytes":int}  (ranges over the split axis, one per node in order; an empty
///             output stripe has an empty input range [x, x)).
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer::modnn {

/// Half-open index range [begin, end).
struct IndexRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;

  std::int64_t size() const { return end > begin ? end - begin : 0; }
  bool operator==(const IndexRange&) const = default;
};

/// Number of indices in both ranges.
std::int64_t overlap(IndexRange a, IndexRange b);

/// Geometry of one convolutional layer (square kernel, same stride and padding on both axes).
struct ConvGeometry {
  std::int64_t height = 1;
  std::int64_t width = 1;
  std::int64_t channels = 1;  ///< input channels C
  std::int64_t kernel = 1;    ///< F
  std::int64_t stride = 1;
  std::int64_t padding = 0;
  std::int64_t filters = 1;          ///< output channels K (does not change the split)
  std::int64_t bytes_per_value = 4;  ///< Z

  std::int64_t output_height() const { return (height + 2 * padding - kernel) / stride + 1; }
  std::int64_t output_width() const { return (width + 2 * padding - kernel) / stride + 1; }
};

/// Reads the geometry keys of a conv problem (see the schema above); throws `InputError` with the
/// JSON path (`kernel: expected an integer in [1, 65536], got -3`).
ConvGeometry parse_conv_geometry(const Json& problem);

/// Sizes of `total` items split proportionally to `weights` (all > 0) by largest remainder:
/// floor of each exact share, then one more item to the largest fractional parts (ties: lower
/// index). Each size is within one item of total * w_i / sum w. Example: (10, {1, 1, 1}) -> {4, 3, 3}.
std::vector<std::int64_t> proportional_sizes(std::int64_t total, const std::vector<double>& weights);

/// Throws `Error` unless `weights` is non-empty and every weight is finite and > 0.
void check_capabilities(const std::vector<double>& weights);

/// Consecutive ranges covering [0, total) with `proportional_sizes`.
std::vector<IndexRange> proportional_split(std::int64_t total, const std::vector<double>& weights);

/// Input indices the outputs in `out` read along one axis (receptive field): the smallest range
/// holding every real (non-padding) input index they read. An empty `out`, or a field lying wholly
/// in the padding, gives an empty range. Example: out [2, 4), kernel 3, stride 2, padding 1,
/// input 8 -> [3, 8); out [0, 2), kernel 1, stride 3, padding 2 -> [1, 2) (output 0 reads padding).
IndexRange receptive_range(IndexRange out, std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                           std::int64_t input_size);

enum class SplitAxis { Height, Width };

struct BodpProblem {
  ConvGeometry conv;
  std::vector<double> capabilities;  ///< CA[i] > 0, one per node, in node order
};

struct BodpPlan {
  SplitAxis axis = SplitAxis::Height;
  std::vector<IndexRange> output_ranges;  ///< per node, along `axis` of the output
  std::vector<IndexRange> input_ranges;   ///< per node, receptive field of its output range
  std::vector<IndexRange> owned_ranges;   ///< per node, its share of the input (proportional split)
  std::vector<std::int64_t> halo_rows;    ///< per node, |input_range \ owned_range|
  std::vector<std::int64_t> peers;        ///< per node, how many other nodes it receives halo rows from
  std::int64_t transfer_bytes = 0;        ///< see the header comment
};

/// Throws `InputError` naming the JSON path on a malformed problem.
BodpProblem parse_bodp_problem(const Json& problem);

/// The BODP split of one conv layer. Never throws for a problem from `parse_bodp_problem`; throws
/// `Error` on bad capabilities (see `check_capabilities`).
///
///     auto plan = bodp_partition({conv, {1.0, 1.0, 2.0}});   // node 2 gets half the output rows
BodpPlan bodp_partition(const BodpProblem& problem);

/// `[[b, e), ...]` as `[[b, e], ...]`.
Json ranges_to_json(const std::vector<IndexRange>& ranges);

Json bodp_plan_to_json(const BodpPlan& plan);

/// parse -> partition -> JSON; the `bodp` solver.
Json solve_bodp_json(const Json& problem);

}  // namespace coinfer::modnn
