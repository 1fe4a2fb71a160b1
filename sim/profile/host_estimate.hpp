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
///     HostProfile p = estimate_host_profile(build_zoo_model("vgg16"), HostSpeed::nominal());
#include <map>

#include "sim/calibration/op_class.hpp"
#include "sim/graph/graph.hpp"
#include "sim/profile/host_profile.hpp"

namespace coinfer {

/// host_cpu of an estimate on `HostSpeed::nominal()` (and of the shipped calibrations' fit).
inline constexpr const char* kNominalHostName = "nominal reference host";

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

/// Estimated host profile of an inferred graph (basis "estimate", no groups).
HostProfile estimate_host_profile(const Graph& graph, const HostSpeed& speed);

}  // namespace coinfer
