#pragma once
/// JointDNN online training (Eshratifar et al., seeds/003, sec. 2.3, 2.4.3-2.4.4, eq. 12-17): one
/// training step of a chain or residual model as a 2N-layer JointDNN problem, solved by the same
/// cores as inference, and the plan of its schedule (forward and backward compute tasks, activation
/// and gradient crossings, weight downloads) that the replay runs.
///
/// Problem layers 1..N are the forward layers (as in the inference problem, skips and detached
/// layers included); layer N+r (r = 1..N) is b(N-r+1), the backward pass of forward layer N-r+1
/// (the mirror), costed on each side by the device's op_scale x the layer's host backward time
/// (sim/profile/backward_estimate.hpp: the estimate basis's backward / forward ratio applied to the
/// scenario's forward profile). A group spanning both halves costs its forward part plus its
/// backward part.
///
/// The backward half is the reverse DAG of the forward one (sec. 2.4's skips, mirrored): b(u)
/// computes dL/d(input of u) and every b(v) with v a producer of u reads it (b(v) sums what its
/// consumers send). So b(u) -> b(v) for each forward edge v -> u with v >= 1: forward chain edges
/// become backward chain edges, a forward skip [v, u] the skip [2N+1-u, 2N+1-v], a detached forward
/// layer u detaches b(u-1); b(N) reads forward layer N (the loss gradient). A residual add passes
/// the same tensor dL/d(out u) to all its producers, so "one crossing per output" holds in both
/// halves. A concat sends each producer a different slice: models with a multi-input layer other
/// than add are refused.
///
/// Crossings (what each output carries):
/// - output j <= N: forward layer j's activation (layer 0: the model input; layer N: the loss
///   gradient, as large as the output), as in inference;
/// - output of b(u): dL/d(input of u), the size of u's producer's output (u's own for an add);
///   nothing crosses when u reads only the model input (b(1), output 2N: eq. 13 has no final
///   download of dL/d(input)).
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
/// layer with a backward kernel, every multi-input layer an add.
#include <string>
#include <vector>

#include "partitioners/jointdnn/scenario_problem.hpp"

namespace coinfer::jointdnn {

struct TrainingProblem {
  ScenarioProblem scenario;  ///< `scenario.problem` has 2N layers; positions as for inference
  int forward_layers = 0;    ///< N
  /// [k] for k = 0..2N: bytes crossing when problem layer k's output changes sides (0 for k = 2N).
  std::vector<double> crossing_bytes;
  /// [k-1] for k = 1..2N: bytes downloaded when problem layer k runs on the cloud (0 for forward).
  std::vector<double> weight_bytes;
  /// [k] for k = 1..2N: the problem layers whose outputs layer k reads, increasing ([0] empty).
  std::vector<std::vector<int>> producers;
  /// [k] for k = 1..2N: "conv1" for forward layers, "d:conv1" for backward ones (k = 0: "input").
  std::vector<std::string> names;
};

/// Builds the training problem; throws `InputError`: `model` names the first layer without a
/// backward kernel or the multi-input layer that is not an add; `partitioner.compression` for png (gradients
/// and weights cross raw); `partitioner.updated_fraction` outside [0, 1]; `partitioner.network`
/// when the radio may sleep during a step. Example: `build_training_problem(ctx, setup, 0.5)`.
TrainingProblem build_training_problem(const PartitionContext& context, const ScenarioSetup& setup,
                                       double updated_fraction);

/// The plan of `solution`: one chain of tasks in schedule order: per group one crossing for each
/// output it reads that is on the other side only (each output crosses at most once), the group's compute
/// task ("fwd"/"bwd" in its label), and after a cloud group one weight download per backward layer with
/// weights.
Plan plan_of_training_schedule(const TrainingProblem& tp, const Solution& solution, const std::string& name);

}  // namespace coinfer::jointdnn
