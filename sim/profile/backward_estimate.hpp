#pragma once
/// Host time of each layer's *backward* pass (input gradient + weight gradient), for training
/// plans (JointDNN sec. 2.3: the second N layers of a training step are the mirrored backward
/// layers, each with its own cost). Two sources, both on the same host basis as forward times so
/// that a device's calibration op_scale applies unchanged (no seed reports device backward
/// timings, so a device's backward time is its forward op_scale x the host backward time):
///
/// - the ESTIMATE (`estimate_backward_profile`), the forward estimate's formula with the backward
///   work: layers with weights (conv, depthwise, fc, lstm, norm) run two GEMM-shaped passes as
///   large as the forward one (dL/dx = W^T dy and dL/dW = dy x^T), so 2x the forward work; other
///   layers run one pass over the same elements (1x). Traffic: the backward reads dy (output
///   bytes) and the forward input, and writes dx (input bytes): forward traffic + input bytes.
///   Cross-check: bench/backward_bench measures conv backward at 2.2-2.8x its forward on this
///   host, the estimate gives 2x plus traffic.
/// - `backward_profile_of(graph, forward, measured)`: a forward profile (estimate, measured or
///   normalised) carried to the backward pass layer by layer with the estimate's backward /
///   forward ratio, or the ratio this host's real kernels gave (`coinfer profile --backward` over
///   the forward profile), so a profile-basis cost model gets backward times on its own basis.
///
///     HostProfile b = estimate_backward_profile(graph, HostSpeed::nominal());
///     CostModel backward(graph, b, MeasuredProfile::AsMeasured);  // backward times on devices
#include <optional>
#include <string>

#include "sim/graph/graph.hpp"
#include "sim/profile/host_estimate.hpp"

namespace coinfer {

/// Estimated host seconds of the backward pass of the layer at graph index `index` (0 for the input).
double estimate_backward_time_s(const Graph& graph, std::size_t index, const HostSpeed& speed);

/// Backward estimate of every layer (topological positions; basis "estimate", no groups).
HostProfile estimate_backward_profile(const Graph& graph, const HostSpeed& speed);

/// A layer's backward / forward ratio measured on this host: `forward` from profile_model and
/// `backward` from profile_backward (sim/profile/backward_profiler.hpp), same graph and options.
struct MeasuredBackwardRatio {
  const HostProfile& forward;
  const HostProfile& backward;
};

/// `forward` (one timing per topological position) times each layer's backward / forward ratio;
/// same model, host and basis, no groups. The ratio is the nominal estimate's, or with `measured`
/// the one this host's kernels gave (a layer measured at 0 s forward keeps the estimate's ratio).
/// The ratio carries the measured backward times to `forward`'s basis (normalised, any batch)
/// the way the forward profile got there. Throws `Error` when a profile does not match the graph.
HostProfile backward_profile_of(const Graph& graph, const HostProfile& forward,
                                const std::optional<MeasuredBackwardRatio>& measured = std::nullopt);

/// The name of the first layer (topological order) without a backward kernel
/// (sim/kernels/layer_runner.hpp `has_backward`), or nullopt when every layer has one.
std::optional<std::string> first_layer_without_backward(const Graph& graph);

}  // namespace coinfer
