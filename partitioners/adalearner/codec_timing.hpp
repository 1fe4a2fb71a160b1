#pragma once
/// How long AdaLearner's gradient codecs take per gradient element, in element operations of the
/// nominal host (HostSpeed::nominal's elementwise rate, the basis the device files are fitted on).
///
/// - nominal (the default, deterministic): 1-bit encode 3 operations per element (residual add, sign
///   and level sums, new residual), TernGrad encode 2, decode 1;
/// - measured: the real kernels (sim/kernels/quantize.hpp: OneBitQuantizer::quantize with error
///   feedback, terngrad_quantize, dequantize of a 1-bit message) timed on this host over the model's
///   parameter tensors (median of 5), expressed in the same units through this host's measured speed
///   (measure_host_speed: nominal rates scaled by a timed GEMM). Depends on the host and its load, so
///   a run with it is not byte-identical across runs.
///
///     CodecOps ops = measured_codec_ops(graph);   // ops.onebit_encode: operations per element
#include "sim/graph/graph.hpp"

namespace coinfer::adalearner {

struct CodecOps {
  double onebit_encode = 3.0;
  double terngrad_encode = 2.0;
  double decode = 1.0;
};

/// Times the real codec kernels on `graph`'s parameters (seeded initial weights as gradients).
CodecOps measured_codec_ops(const Graph& graph);

}  // namespace coinfer::adalearner
