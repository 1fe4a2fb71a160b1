#pragma once
/// JointDNN online training (Eshratifar et al., seeds/003, sec. 2.3, 2.4.3-2.4.4, eq. 12-17): one
/// training step of a chain model as a 2N-layer JointDNN problem, solved by the same cores as
/// inference, and the plan of its schedule (forward and backward compute tasks, activation and
/// gradient crossings, weight downloads) that the replay runs.
///
/// Problem layers 1..N are the forward layers (as in the inference problem); layer N+r
/// (r = 1..N) is the backward pass of forward layer N-r+1 (the mirror), costed on each side by
/// the device's op_scale x the layer's host backward time (sim/profile/backward_estimate.hpp: the
/// estimate basis's backward / forward ratio applied to the scenario's forward profile). A group
/// spanning both halves costs its forward part plus its backward part.
///
/// Crossings (what the paper's chain carries in each direction):
/// - output j <= N: forward layer j's activation (layer 0: the model input; layer N: the loss
///   gradient, as large as the output), as in inference;
/// - output N+r (r < N): dL/d(input of forward layer N-r+1), the size of forward output N-r;
/// - output 2N: dL/d(model input) is not needed: nothing crosses (eq. 13 has no final download).
/// As in eq. 13, a backward layer reads only its successor's gradient: the forward activations
/// it also needs are taken as present where it runs (the paper's cloud keeps every tensor).
///
/// Weights (eq. 13's last term, eq. 16's): a backward layer run on the cloud updates its weights
/// there; `updated_fraction` x its weight bytes (4 per parameter, 1 with `wire: int8`; rounded up
/// to whole bytes) are then
/// downloaded to the mobile, right after its group, one transfer per layer. A backward layer run
/// on the mobile updates them in place (the paper: no upload, the cloud redoes the step itself).
///
/// Latency = the whole step run serially (the plan is one chain of tasks); energy = the mobile's
/// active energy (busy compute + radio), as for inference. Models: single input and output, every
/// layer reading only its predecessor (no skips, no branches), every layer with a backward kernel.
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
  /// [k] for k = 1..2N: "conv1" for forward layers, "d:conv1" for backward ones (k = 0: "input").
  std::vector<std::string> names;
};

/// Builds the training problem; throws `InputError`: `model` names the first layer without a
/// backward kernel or why the model is not a chain; `partitioner.compression` for png (gradients
/// and weights cross raw); `partitioner.updated_fraction` outside [0, 1]; `partitioner.network`
/// when the radio may sleep during a step. Example: `build_training_problem(ctx, setup, 0.5)`.
TrainingProblem build_training_problem(const PartitionContext& context, const ScenarioSetup& setup,
                                       double updated_fraction);

/// The plan of `solution`: one chain of tasks in schedule order: per group a crossing when its
/// input is on the other side, the group's compute task ("fwd"/"bwd" in its label), and after a
/// cloud group one weight download per backward layer with weights.
Plan plan_of_training_schedule(const TrainingProblem& tp, const Solution& solution, const std::string& name);

}  // namespace coinfer::jointdnn
