#pragma once
/// The JointDNN problem (jointdnn_problem.hpp) built from a scenario's own model, devices and
/// network, solved by the existing cores, and turned into a Plan the replay simulates
/// (`jointdnn` and `neurosurgeon` partitioners).
///
/// Layers: the model's layers in topological order after its single input layer (layer 0 of the
/// problem is the model input). Every dependency other than "previous layer" becomes a skip. The
/// problem assumes layer j+1 reads layer j (its crossing is charged whenever they sit on different
/// sides), so a model where some layer does not read its predecessor (Inception branches, ResNet
/// projection shortcuts) would be costed wrongly: it is rejected with an `InputError`. So is a model
/// with several inputs or outputs.
///
/// Costs (one inference, of `batch` inputs; below for batch 1):
/// - group [i..j] on a side: `CostModel::range_time_s` of those layers on the device (grouped
///   profile timings where they exist); mobile group energy = busy_w x time;
/// - crossing of layer j's output: latency_s + 8 bytes / rate_bps on the network's uplink (mobile to
///   cloud) or downlink; mobile radio energy as the replay charges it, eq. 21 with the throughput
///   bytes / duration over the whole transfer: alpha x 8 bytes / 1e6 + beta x duration (mW -> J);
/// - radio wake-up: the first upload of an inference finds the mobile's radio asleep and waits
///   `wake_up_s` (the replay starts radios asleep). The network's power-save timeout must exceed any
///   idle gap a schedule can leave, so no later crossing pays one; otherwise an `InputError`.
///   A schedule that uses the cloud pays exactly one wake-up, which is solved exactly by solving
///   with the maxima tightened by it and comparing with the all-mobile schedule.
///
/// With `compression: png` a crossing of a conv-shaped output carries the PNG's bytes and its time
/// adds the compress kernel on the sender and the decompress kernel on the receiver (host median
/// x the device's op_scale for class `other`; the mobile's busy_w applies to its share); fc-shaped
/// outputs cross raw. The kernel times are measured on this host, so they vary a little per run.
///
/// Energy is the mobile's *active* energy of the paper (busy compute + radio). The replay also
/// charges idle_w while the mobile waits: replay energy_j = active + idle_w x (end_s - busy_s).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partitioners/jointdnn/jointdnn_problem.hpp"
#include "sim/core/error.hpp"
#include "sim/functional/forward_pass.hpp"  // host_memory_bytes
#include "sim/scenario/partitioner.hpp"

namespace coinfer::jointdnn {

/// `status_quo`: the better of mobile-only and cloud-only (the paper's baseline, sec. 4);
/// `mobile_only` / `cloud_only`: that one schedule (infeasible when it misses a maximum).
enum class SolverChoice {
  automatic,
  shortest_path,
  labels,
  ilp,
  neurosurgeon,
  status_quo,
  mobile_only,
  cloud_only
};

/// The partitioner parameters (`partitioner.*` in a scenario); empty names mean defaults.
struct ScenarioSetup {
  std::string mobile;   ///< "" = the scenario's source (it must be the source)
  std::string cloud;    ///< "" = the first server / desktop device other than the mobile
  std::string network;  ///< "" = the first network joining mobile and cloud
  Objective objective = Objective::latency;
  std::optional<double> max_latency_s;
  std::optional<double> max_energy_j;
  std::optional<double> max_cloud_time_s;
  SolverChoice solver = SolverChoice::automatic;
  /// `compression: png`: conv-shaped outputs cross as PNG (png_wire.hpp), with compress and
  /// decompress tasks; `seed` seeds the forward pass's weights and input, `weights_file` names a
  /// raw weights file (png_wire.hpp; in a scenario, relative to its folder) instead.
  bool png = false;
  /// `wire: int8`: every output crosses as 8-bit fixed point, one byte per element (the paper's
  /// uncompressed baseline, sec. 4.2: "we implemented our architectures with 8-bits fixed-point");
  /// `fp32` (default): the layer's output bytes.
  bool int8_wire = false;
  std::uint64_t seed = 1;
  std::string weights;
  /// `relu_zero_ratio: z` (png only): z of every conv relu's output zeroed (png_wire.hpp), the
  /// zero ratio trained weights give and random ones do not.
  std::optional<double> relu_zero_ratio;
  /// Rates (bps) the crossings are costed at instead of the network's nominal uplink / downlink
  /// (the `table` grid cells, table.hpp); latency and the radio model stay the network's.
  std::optional<double> uplink_bps, downlink_bps;
  /// `batch: B` (Fig. 8 / 10b): B inputs per inference. Every group costs the batch-B time of its
  /// layers (`PartitionContext::batch_cost`: kernels timed at batch B, not B x one input) and every
  /// crossing carries B x the tensor (B x the per-sample PNG, compressed and decompressed B times).
  std::int64_t batch = 1;
};

/// The problem plus what is needed to turn a schedule back into a plan.
struct ScenarioProblem {
  Problem problem;  ///< without the wake-up (see `wake_up_s`)
  std::string mobile;
  std::string cloud;
  std::string network;
  /// [k]: topological position of problem layer k (k = 0: the model input).
  std::vector<std::size_t> position;
  /// [k]: positions of the layers whose outputs problem layer k reads (k >= 1).
  std::vector<std::vector<std::size_t>> producers;
  /// Latency added once to every schedule using the cloud (the first upload's radio wake-up).
  double wake_up_s = 0.0;
  /// [k]: bytes on the wire of problem layer k's output (the PNG's size when compressed).
  std::vector<double> wire_bytes;
  /// [k][d]: seconds to compress on the sender / decompress on the receiver when layer k's output
  /// crosses in direction d (0: up to the cloud, 1: down to the mobile); 0 when sent raw.
  std::vector<std::array<double, 2>> compress_s, decompress_s;
  /// The cloud -> mobile link as costed (rate after any `downlink_bps` override) and the mobile's
  /// radio power model on it (null on a wired network): the training problem's weight downloads.
  LinkSpec downlink;
  const RadioPowerModel* radio = nullptr;
  double busy_w = 0.0;                ///< the mobile's busy power (compute energy = busy_w x time)
  double power_save_timeout_s = 0.0;  ///< the network's (a gap longer than it puts the radio to sleep)
};

/// An InputError at `partitioner.<key>` (the scenario partitioners' parameters).
InputError param_error(const char* key, std::string message);

/// Bytes of a problem's group tables: layers (layers + 1) / 2 groups of consecutive layers, each
/// with a mobile time, a cloud time and a mobile energy (doubles).
inline double group_table_bytes(std::int64_t layers) {
  return double(layers) * double(layers + 1) / 2 * 3 * sizeof(double);
}

/// Throws `InputError` at `partitioner.name` (naming the model, its layer count and the most
/// layers that fit) when the group tables of `layers` layers need more than `limit_bytes`
/// (default: this host's memory); checked before they are allocated. They grow with the square of
/// the layer count: 10,000 layers need 1.2 GB. Example: `check_group_tables(graph, 100000)`.
void check_group_tables(const Graph& model, std::int64_t layers,
                        std::int64_t limit_bytes = host_memory_bytes());

/// Longest the mobile's radio can stay idle inside one pass of `problem`: the largest sum of
/// group times over all groupings (each group on its slower side).
double idle_gap_bound_s(const Problem& problem);

/// Builds the problem; throws `InputError` (path `partitioner.<key>` or `model`) for unknown
/// devices or networks, a network not joining mobile and cloud, a missing radio power model when
/// energy matters, a model the problem cannot cost exactly, or a radio that may sleep mid-inference.
/// Example: `build_scenario_problem(ctx, ScenarioSetup{})`.
ScenarioProblem build_scenario_problem(const PartitionContext& context, const ScenarioSetup& setup);

/// What solver `auto` runs: the shortest path without maxima, the label-setting search with them, and
/// GLPK's ILP when more skip sources overlap than the JointDNN graph takes (`kMaxOpenSkips`: DenseNet's
/// concatenations), since the ILP's size does not grow with the overlap.
Solution solve_automatic(const Problem& p);

/// The optimal schedule for the setup's solver, wake-up included in `cost.latency_s`. Throws
/// `InputError` when no schedule meets the maxima, naming the maximum and the best achievable
/// value, e.g. `partitioner.max_latency_s: no schedule meets 0.01 s; the best latency is 0.052 s`.
Solution solve_scenario_problem(const ScenarioProblem& sp, SolverChoice solver);

/// The plan of `solution`: one compute task per group (duration = the group's time), one transfer
/// per crossing (on the chosen network), the output downloaded at the end when it is on the cloud.
Plan plan_of_schedule(const PartitionContext& context, const ScenarioProblem& sp, const Solution& solution,
                      const std::string& name);

}  // namespace coinfer::jointdnn
