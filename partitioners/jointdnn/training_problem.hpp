#pragma once
/// JointDNN online training (Eshratifar et al., [JointDNN §2.3, §2.4.3-2.4.4, eq. 12-17]): one
/// training step of a chain, residual or concat (U-Net, Inception) model as a JointDNN problem of
/// 2N layers plus one zero-compute "slice" layer per concat input, solved by the same cores as
/// inference, and the plan of its schedule (forward and backward compute tasks, activation and
/// gradient crossings, weight downloads) that the replay runs.
///
/// Problem layers 1..N are the forward layers (as in the inference problem, skips and detached
/// layers included); then the backward half in mirror order b(N), b(N-1), ..., b(1), where b(u) is
/// the backward pass of forward layer u, costed on each side by the device's op_scale x the layer's
/// host backward time (PartitionContext::backward_cost: the scenario's forward profile times each
/// layer's backward / forward ratio, measured on this host's kernels with `host_profile: {basis:
/// measured}`, the estimate's otherwise; a concat's backward is the copy into slices,
/// costed like any layer). Right after b(u) of a concat u come its slice layers s(u, v), one per
/// producer v >= 1 in increasing v (named "d:<concat>/<i>", i = v's index in the concat's inputs):
/// zero compute on both sides, no weights. Without concats layer N+r is b(N-r+1). A group spanning
/// both halves costs its forward part plus its backward part (slices add nothing; backward times
/// are additive, no grouped backward timings).
///
/// The backward half is the reverse DAG of the forward one (sec. 2.4's skips, mirrored): b(u)
/// computes dL/d(input of u) and every b(v) with v a producer of u reads it (b(v) sums what its
/// consumers send): b(u) -> b(v) for each forward edge v -> u with v >= 1 (nothing reads dL/d(model
/// input)), except through a concat: b(u) -> s(u, v) -> b(v). b(N) reads forward layer N (the loss
/// gradient). Every edge other than "previous layer" is a skip, every layer not reading its
/// predecessor is detached, as in the inference problem.
///
/// Why slices (exact per-edge gradient routing inside "one crossing per output"): a residual add
/// passes the SAME tensor dL/d(out u) to all its producers, so b(u)'s output crosses at most once
/// and the problem is exact as is. A concat's backward is pure routing: producer v receives its own
/// slice g_v of G = dL/d(out u) (disjoint slices summing to G). A real step gets g_v to b(v)'s side
/// either as its own transfer (if b(v) is across from b(u): cost c(g_v)) or, once G has crossed
/// whole (cost c(G), paid once), sliced there for free. For fixed sides of the real layers, with
/// A = the producers v whose b(v) is across from b(u), the cheapest routing therefore costs
///   R = 0 if A is empty, else min( sum_{v in A} c(g_v), c(G) ),
/// (sending G and also some slices separately never helps: once G is across, every slice is).
/// The problem's cost over the slice layers' sides x_v attains exactly this minimum: x_v = side of
/// b(u) costs c(g_v) iff v in A; any x_v across costs c(G) once, plus c(g_w) for each such w whose
/// b(w) is back on b(u)'s side. Minimising over x: producers not in A keep x_v with b(u) (moving
/// them only adds cost), and producers in A go all with b(u) (sum of their c(g_v)) or all across
/// (c(G)). With transfers costing bytes / rate only, c(G) = sum over ALL producers >= sum over A,
/// so the optimum is the per-edge cost sum_{v in A} c(g_v); with a per-transfer latency or radio
/// energy overhead, one transfer of G can beat several slices, and the schedule may choose it (the
/// plan then sends G and slices on the far side). Slices cost nothing to compute and their
/// position in the order does not change any cost (backward times are additive), so the solvers'
/// optimum over all groupings equals the minimum over the real layers' sides of compute + weights
/// + crossings with R per concat (tests/partitioners/jointdnn/training_concat_test.cpp: brute force).
///
/// Crossings (what each output carries):
/// - output j <= N: forward layer j's activation (layer 0: the model input; layer N: the loss
///   gradient, as large as the output), as in inference;
/// - output of b(u): dL/d(input of u), the size of u's producer's output (u's own for an add or a
///   concat: G); nothing crosses when u reads only the model input (eq. 13 has no final download of
///   dL/d(input));
/// - output of s(u, v): g_v, the size of v's output.
/// As in eq. 13, a backward layer reads only gradients: the forward activations it also needs are
/// taken as present where it runs (the paper's cloud keeps every tensor).
///
/// Weights (eq. 13's last term, eq. 16's): a backward layer run on the cloud updates its weights
/// there; `updated_fraction` x its weight bytes (4 per parameter, 1 with `wire: int8`; rounded up
/// to whole bytes) are then
/// downloaded to the mobile, right after its group, one transfer per layer. A backward layer run
/// on the mobile updates them in place (the paper: no upload, the cloud redoes the step itself).
///
/// Latency = the whole step run serially (the plan is one chain of tasks); energy = the mobile's
/// active energy (busy compute + radio), as for inference. Models: single input and output, every
/// layer with a backward kernel, every multi-input layer an add or a concat of distinct layers.
#include <string>
#include <vector>

#include "partitioners/jointdnn/scenario_problem.hpp"

namespace coinfer::jointdnn {

/// A problem layer of the backward half: b(`layer`) (`producer` < 0), or the slice layer s(`layer`,
/// `producer`) of concat `layer`'s gradient for its producer, the concat's input `input`. Layers are
/// forward problem indices (1..N).
struct BackwardLayer {
  int layer = 0;
  int producer = -1;
  int input = -1;
  bool is_slice() const { return producer >= 0; }
};

struct TrainingProblem {
  ScenarioProblem scenario;  ///< `scenario.problem` has N + backward.size() layers
  int forward_layers = 0;    ///< N
  /// [k-N-1] for problem layers k = N+1..: what layer k is (b(N) first).
  std::vector<BackwardLayer> backward;
  /// [k] for every output k (0 = input): bytes crossing when it changes sides (0 for the last).
  std::vector<double> crossing_bytes;
  /// [k-1] for every layer k: bytes downloaded when layer k runs on the cloud (0 for forward, slices).
  std::vector<double> weight_bytes;
  /// [k] for every layer k: the problem layers whose outputs layer k reads, increasing ([0] empty).
  std::vector<std::vector<int>> producers;
  /// [k]: "conv1" for forward layers, "d:conv1" for backward ones, "d:cat/1" for slices (k = 0: "input").
  std::vector<std::string> names;
};

/// Builds the training problem; throws `InputError`: `model` names the first layer without a
/// backward kernel, or a concat reading one layer twice, or a multi-input layer that is neither add
/// nor concat; `partitioner.compression` for png (gradients and weights cross raw);
/// `partitioner.updated_fraction` outside [0, 1]; `partitioner.network` when the radio may sleep
/// during a step. Example: `build_training_problem(ctx, setup, 0.5)`.
TrainingProblem build_training_problem(const PartitionContext& context, const ScenarioSetup& setup,
                                       double updated_fraction);

/// The plan of `solution`: one chain of tasks in schedule order: per group one crossing for each
/// output it reads that is on the other side only (each output crosses at most once), the group's compute
/// task ("fwd"/"bwd" in its label), and after a cloud group one weight download per backward layer with
/// weights.
Plan plan_of_training_schedule(const TrainingProblem& tp, const Solution& solution, const std::string& name);

}  // namespace coinfer::jointdnn
