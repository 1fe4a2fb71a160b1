#pragma once
/// AdaLearner's training iteration as a plan ([Mao-PhD ch. 3]):
/// a group owner (GO, the scenario's source) and k worker phones on one WiFi network.
///
/// Tasks of one iteration, worker i in 1..k (the devices the GO reaches, in platform order):
/// - `w<i>.step` on worker i: the training step (forward + backward + update, 3 forward passes as
///   the Nexus 5X calibration's `train_step` figures count it) over its share of the minibatch;
///   the shares split the total by capability (time_model.hpp split_minibatch, sec. 3.3) over
///   each worker's step table (the cost model's per-sample step time, linear in the batch);
/// - fp32 (Fig. 3.4): `w<i>.grad` uploads the fp32 gradient to the GO; `go.merge` sums them and
///   steps; `go>w<i>.weights` sends the weights back, one worker after another (FIFO, `after`);
/// - onebit / terngrad (Fig. 3.5, 3.9): `w<i>.encode` on the worker, `w<i>.grad` uploads the
///   encoded message (size from the real codec, sim/kernels/quantize.hpp), `go.decode.w<i>` on the
///   GO one worker after another, `go.merge`, `go.encode` (the GO quantizes the sum), the encoded
///   update to every worker in FIFO order, `w<i>.decode` on each worker (parallel);
/// - `local` (k = 0 in the result): the whole minibatch on the GO, no communication.
/// Codec and merge times: element operations (codec_timing.hpp: nominal counts, or the real kernels
/// timed on this host with `measured_codecs`) at the nominal host's elementwise rate
/// (HostSpeed::nominal) times the device's `elementwise` op scale (`default` when it has none);
/// merge k + 2 operations per parameter (k sums, the SGD update).
///
/// The scheme `auto` applies eq. 3.13 for the worker count; `workers` unset (auto) applies sec.
/// 3.5: the least eq. 3.8 estimate (time_model.hpp) over local and 1..max_workers workers, each
/// with its eq. 3.13 scheme (or the fixed scheme). The choice is in the plan's `AdaLearnerFacts`
/// (adalearner_facts.hpp): worker count, scheme, the estimate and its parts, minibatch, message size.
///
///     AdaOptions o;  o.workers = 4;  o.scheme = AdaScheme::OneBit;
///     Plan plan = adalearner_plan(ctx, o).plan;
#include <cstdint>
#include <string>
#include <vector>

#include "partitioners/adalearner/codec_timing.hpp"
#include "sim/scenario/partitioner.hpp"

namespace coinfer::adalearner {

enum class AdaScheme { Fp32, OneBit, TernGrad, Auto, Local };

struct AdaOptions {
  int workers = 0;      ///< 0: auto (sec. 3.5)
  int max_workers = 0;  ///< 0: every device the GO reaches
  AdaScheme scheme = AdaScheme::Auto;
  std::int64_t minibatch = 128;
  bool measured_codecs = false;  ///< time the real codec kernels (codec_timing.hpp)
};

/// What the plan is built from (also what the analytic estimate uses).
struct AdaCosts {
  std::vector<std::string> workers;       ///< candidate worker devices, platform order
  std::vector<double> step_per_sample_s;  ///< per candidate worker
  double go_step_per_sample_s = 0.0;      ///< the GO's (local training)
  std::int64_t params = 0;                ///< trainable parameters
  double fp32_bytes = 0.0;                ///< one gradient / weights message in fp32
  double onebit_bytes = 0.0;              ///< one 1-bit message
  double terngrad_bytes = 0.0;            ///< one TernGrad message
  double rate_bytes_per_s = 0.0;          ///< the GO's network
  double wake_up_s = 0.0;                 ///< per transfer (the network's wake-up)
  std::vector<double> elementwise_op_s;   ///< per candidate worker: seconds per element op
  double go_elementwise_op_s = 0.0;
  CodecOps codec;  ///< nominal or measured codec operations per element
};

struct AdaResult {
  Plan plan;
  int workers = 0;  ///< 0: local
  AdaScheme scheme = AdaScheme::Fp32;
  std::vector<double> estimates_s;  ///< auto: eq. 3.8 for local, 1, 2, ... workers
};

/// Throws `InputError` naming `partitioner.workers` (more than reachable, none reachable),
/// `partitioner.minibatch` (fewer samples than workers) or the model layer without a backward
/// kernel.
AdaCosts adalearner_costs(const PartitionContext& context, bool measured_codecs = false);
AdaResult adalearner_plan(const PartitionContext& context, const AdaOptions& options);

/// Eq. 3.8 (time_model.hpp estimate_iteration) for `workers` (>= 1) of `costs` with the codec
/// speeds of `costs`; `onebit_bytes` chooses the quantized message size for the 1-bit terms.
struct AdaEstimate {
  bool onebit = false;
  double total_s = 0.0, compute_s = 0.0, transfer_s = 0.0, wakeup_s = 0.0, codec_s = 0.0;
  std::vector<std::int64_t> split;
};
AdaEstimate adalearner_estimate(const AdaCosts& costs, int workers, std::int64_t minibatch, AdaScheme scheme);

}  // namespace coinfer::adalearner
