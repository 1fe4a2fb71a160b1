#pragma once
/// MACs-based estimate of per-layer host time, for when no measured profile is at hand (and
/// for deterministic tests and checks). It is an ESTIMATE, not a measurement:
///
///     time(layer) = work(layer) / rate(op class) + bytes(layer) / bytes_per_s + overhead_s
///
/// where work is the layer's MACs (conv, depthwise, deconv, fc, lstm; nonzero MACs for sparse
/// fc), kernel-window reads (pool) or elements (elementwise, norm), and bytes are its input
/// plus output activations. `HostSpeed::nominal()` is a fixed reference host (constants below,
/// typical of one core of a 2015-2020 x86 CPU with AVX2); `measure_host_speed()` rescales it by
/// a GEMM timed once on this host.
///
/// At batch B (B inputs per call, as the profiler's `ProfileOptions::batch` times them) every
/// term is B times larger except the layer overhead and the dense fc work: fc is GEMV-bound at
/// batch 1 (its weights stream from memory once per call, the fc rate above) and becomes a GEMM
/// over B columns that reads the weights once (sim/kernels/batched.hpp), so its work follows a
/// roofline:
///
///     work_fc(B) = max(work / rate_fc, B x work / rate_conv)     (the GEMM rate of convolution)
///
/// flat while the weight traffic dominates (B < rate_conv / rate_fc = 6 on the nominal host), then
/// growing at the GEMM rate. Batch 1 is the formula above unchanged. LSTM stays B x its batch-1
/// time, as the batched kernel runs it sample by sample.
///
///     HostProfile p = estimate_host_profile(build_zoo_model("vgg16"), HostSpeed::nominal());
#include <map>
#include <string>

#include "sim/calibration/op_class.hpp"
#include "sim/graph/graph.hpp"
#include "sim/profile/host_profile.hpp"

namespace coinfer {

/// host_cpu of an estimate on `HostSpeed::nominal()` (and of the shipped calibrations' fit).
inline constexpr const char* kNominalHostName = "nominal reference host";
/// The `fit` record of a calibration fitted on the estimate basis, as error messages quote it:
/// `"fit": {"host_cpu": "nominal reference host", "host_basis": "estimate"}`.
inline const std::string kEstimateFitExample =
    std::string(R"("fit": {"host_cpu": ")") + kNominalHostName + R"(", "host_basis": "estimate"})";

struct HostSpeed {
  std::map<OpClass, double> work_per_s;  ///< MACs (or element operations) per second per class
  double bytes_per_s = 0.0;              ///< activation traffic
  double overhead_s = 0.0;               ///< fixed cost per layer
  std::string label;                     ///< "nominal" or "measured (x GMAC/s GEMM)"

  /// The fixed reference host of the estimate (deterministic; used by tests and `--basis estimate`).
  static HostSpeed nominal();
};

/// `HostSpeed::nominal()` rescaled by the MAC rate of a single-threaded Eigen GEMM timed on
/// this host (about 0.2 s).
HostSpeed measure_host_speed();

/// Work units of a layer as defined above (MACs, window reads or elements).
double layer_work(const Graph& graph, std::size_t index);
/// Bytes a layer reads and writes (input activations + output activation).
double layer_traffic_bytes(const Graph& graph, std::size_t index);

/// Estimated host profile of an inferred graph at batch `batch` (basis "estimate", no groups);
/// throws `Error` for batch < 1.
HostProfile estimate_host_profile(const Graph& graph, const HostSpeed& speed, std::int64_t batch = 1);

}  // namespace coinfer
