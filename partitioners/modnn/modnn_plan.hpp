#pragma once
/// MoDNN's model processor (thesis sec. 3.5 and 6, dissertation sec. 2.2): the plan of a whole
/// chain model on the GO (the scenario's source) and k worker phones.
///
/// Stages (model_stages.hpp) run in turn. Dataflow as in the papers' Fig. 3 (Mobile MapReduce):
/// - map: the GO sends each worker the part of the stage input it needs and does not hold
///   (a conv stage: the stripe / tile input with its halo; an fc stage: the inputs of its rows);
/// - workers compute their part (conv: their stripe / tile of every layer of the stage, time =
///   the layer's device time x their share of its outputs, partial_cost.hpp; fc: their weight
///   block as SpMV or GEMV, fc_split.hpp);
/// - reduce: after a conv stage each worker sends the GO the part of its output that another
///   node needs next (the shared part); after an fc stage it sends its partial outputs, which the
///   GO sums and finishes (its own block, then the stage's activations / softmax);
/// - a shared part travels as one transfer per pair (holder, needer): the reduce hop holder -> GO
///   and the map hop GO -> needer both carry `Task::channel = pair_channel(holder, needer)`, the
///   neighbour channel a per-channel wake-up (platform.hpp WakeUpPer) is paid on; ids
///   "<stage>.reduce.<holder>><needer>" and "<stage>.map.<holder>><needer>";
/// - at the end the GO gathers whatever part of the output it does not hold.
/// Task labels name the stage the data belongs to (the reduce after stage s carries s's name),
/// so stage metrics group per CL / FL.
///
/// Estimated time ET (sec. 3.3: execution plus data delivery; the sweet spot of sec. 3.5.3 picks
/// the k minimising it): the sum over phases of the plan, where a compute phase costs its slowest
/// node and a transfer phase with any bytes costs its wake-ups plus latency plus all its bytes at
/// the network rate (the GO's radio carries every transfer, one at a time). Wake-ups: one per
/// phase when the network pays them per radio; per channel, the most new channels one radio opens.
///
///     ModnnOptions o;  o.conv = ConvSplit::Bodp;  o.workers = 4;
///     Plan plan = modnn_plan(ctx, o).plan;
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partitioners/modnn/conv_split.hpp"
#include "partitioners/modnn/fc_split.hpp"
#include "sim/scenario/partitioner.hpp"

namespace coinfer::modnn {

struct ModnnOptions {
  std::string name = "modnn";
  ConvSplit conv = ConvSplit::Bodp;
  FcMethod sparse_fc = FcMethod::MsccFgcp;  ///< for sparse fc layers; dense ones always use fc-1d
  std::optional<double> fc_sparsity;        ///< overrides every fc layer's own sparsity
  std::int64_t fc_planted_blocks = 0;       ///< generated sparse weights: hidden block structure
  double fc_block_scale = 4.0;              ///< std of in-block weights relative to the others
  int workers = 0;                          ///< 0: the sweet spot over 1..max_workers
  int max_workers = 0;                      ///< 0: every device reachable from the GO
  std::uint64_t seed = 0;                   ///< sparse weights and MSCC
};

struct ModnnResult {
  Plan plan;
  int workers = 0;
  double estimated_s = 0.0;         ///< ET of the chosen plan
  std::vector<double> estimates_s;  ///< ET for k = 1, 2, ... (sweet-spot search; one entry if forced)
};

/// Throws `InputError` (paths under `partitioner` or `model`) when the platform has fewer
/// reachable workers than asked, or the model is not a chain MoDNN can split.
ModnnResult modnn_plan(const PartitionContext& context, const ModnnOptions& options);

/// Devices reachable from the GO, fastest first (computing ability CA = 1 / whole-model time).
std::vector<std::string> candidate_workers(const PartitionContext& context);

}  // namespace coinfer::modnn
