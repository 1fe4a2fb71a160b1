#pragma once
/// Host time of a forward pass with MobiEye's SSI convolutions [Mao-PhD §4.5] against the dense
/// pass, as a function of the mask density: what `coinfer ssi-profile` writes and
/// bench/ssi_conv_bench checks.
///
/// SSI replaces every conv2d layer from the first layer of conv group `from_group` on (the layer
/// named `conv<from_group>`, e.g. FlowNet's conv3: [Mao-PhD §4.5.4] starts after two groups) by
/// `ssi_conv2d`. Each such layer gets its own seeded random mask at its output size with exactly
/// round(density x positions) active positions, so that every SSI layer computes the same share of
/// its outputs, and inactive positions keep the dense pass's output (the key frame's values): the SSI
/// pass updates those activations in place (`ssi_conv2d_into`; copied before its clock starts), as a
/// frame-to-frame pipeline reuses its buffers, while dense layers allocate their outputs. After
/// one untimed pair of passes, `repeats` dense passes alternate with `repeats` SSI passes for each
/// density; times are the profiler's clock (this thread's CPU time with single-threaded kernels,
/// immune to other processes' time slices) and each figure is the median over the repeats.
///
///     SsiProfileOptions o;                        // from_group 3, densities 0.1 ... 1.0
///     auto rows = profile_ssi(build_zoo_model("flownet_dff"), o);
///     write_ssi_profile_csv(rows, std::cout);     // density,dense_ms,ssi_ms,time_ratio
#include <cstdint>
#include <ostream>
#include <vector>

#include "sim/graph/graph.hpp"
#include "sim/kernels/ssi_conv.hpp"

namespace coinfer {

struct SsiProfileOptions {
  int from_group = 3;
  std::vector<double> densities{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};  ///< each in (0, 1]
  int repeats = 5;         ///< timed passes of each kind per density
  std::uint64_t seed = 1;  ///< weights, inputs and masks
};

struct SsiProfileRow {
  double density = 0.0;
  double dense_ms = 0.0;                             ///< whole forward pass, dense conv2d everywhere
  double ssi_ms = 0.0;                               ///< whole forward pass, ssi_conv2d on the SSI layers
  double dense_layers_ms = 0.0;                      ///< the SSI layers only, in the dense passes
  double ssi_layers_ms = 0.0;                        ///< the SSI layers only, in the SSI passes
  std::vector<double> dense_layer_ms, ssi_layer_ms;  ///< per SSI layer (ssi_layer_positions' order)
  double time_ratio() const { return ssi_ms / dense_ms; }
  double layers_ratio() const { return ssi_layers_ms / dense_layers_ms; }
};

/// The layers SSI replaces: topological positions of every conv2d layer from the one named
/// `conv<from_group>` on. Throws `InputError("", "from_group", ...)` when the graph has no such layer.
std::vector<std::size_t> ssi_layer_positions(const Graph& graph, int from_group);

/// A height x width mask with exactly round(density x height x width) active positions, chosen
/// uniformly from `seed` (a partial Fisher-Yates shuffle on std::mt19937_64, the same on every
/// platform). Throws `Error` for a density outside [0, 1].
kernels::SpatialMask random_mask(std::int64_t height, std::int64_t width, double density, std::uint64_t seed);

/// Times the dense and SSI passes of an inferred graph, one row per density. Throws `InputError`
/// ("densities[i]", "repeats", "from_group") for bad options and `Error` on kernel failures.
std::vector<SsiProfileRow> profile_ssi(const Graph& graph, const SsiProfileOptions& options);

/// Keeps freed memory in this process from now on (glibc: no mmap for large blocks, no trim). Every
/// profiled pass allocates its layers' outputs afresh; with the defaults the large ones are fresh
/// mappings each pass, and on a VM their page faults, charged to the layer that first writes an
/// output, can cost more than a sparse layer's work and change from run to run. Call it once, before
/// profiling, in a process that only profiles (`coinfer ssi-profile`, bench/ssi_conv_bench).
void keep_freed_memory_in_process();

/// `density,dense_ms,ssi_ms,time_ratio` and one line per row (ratio = ssi_ms / dense_ms).
void write_ssi_profile_csv(const std::vector<SsiProfileRow>& rows, std::ostream& out);

}  // namespace coinfer
