#pragma once
/// Putting a measured host profile on the basis the calibration files are fitted on.
///
/// A device's op_scale is device time / host time on the host basis recorded in its file's
/// `fit` (the shipped files: the deterministic `estimate` on `HostSpeed::nominal()`). Timings
/// measured on another CPU are faster or slower than that basis by the CPU's speed, and by a
/// different amount per op class, so multiplying them by op_scale would make every device as
/// much faster or slower. `normalize_to_estimate` removes the host: per op class c,
///
///     normalized_l = measured_l * E_c / M_c      for every layer l of class c,
///
/// with M_c, E_c the class's summed measured and estimated medians over the model. Each class
/// (and so the model) then totals exactly what the estimate gives, so every device predicts
/// what its reference figures were fitted to, on any host; within a class the measured
/// per-layer shape (which layers are slow for their MACs) is kept. A class measured as zero
/// takes the estimate's layer times. A grouped timing keeps its measured grouped/separate
/// ratio: it is scaled by (normalized sum / measured sum) of its layers.
///
///     HostProfile p = normalize_to_estimate(graph, profile_model(graph, options));
///     // p.basis == "normalized"; p.range_sum_s(0, n - 1) == estimate total
#include "sim/graph/graph.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/profile/host_profile.hpp"

namespace coinfer {

/// Whether `profile` is already on the basis of the shipped calibrations: the estimate on the
/// nominal reference host, or a profile normalised to it.
bool on_estimate_basis(const HostProfile& profile);

/// `measured` (basis "profile", or an "estimate" of another host speed) rescaled per op class
/// as above to `estimate_host_profile(graph, reference)`; basis "normalized", host_cpu kept.
/// A profile already on the estimate basis is returned unchanged. Throws `Error` when the
/// profile does not have one timing per layer of `graph`.
HostProfile normalize_to_estimate(const Graph& graph, const HostProfile& measured,
                                  const HostSpeed& reference = HostSpeed::nominal());

/// A profile measured at batch B (`batched.batch`) put on the estimate basis with the factors of
/// the batch-1 profile `single` measured on the same host: normalized_l = batched_l x E_c / M_c with
/// M_c, E_c the class sums of `single` and of the batch-1 estimate. Normalising the batch-B
/// profile to itself would give the estimate's class totals at batch B; this keeps the measured
/// batch-B / batch-1 ratio of every layer (what the real batched kernels gave). Throws `Error`
/// when `single` is not at batch 1 or a profile does not have one timing per layer.
///
///     HostProfile b8 = normalize_batch_to_estimate(graph, profile_model(graph, at8), profile_model(graph,
///     at1));
HostProfile normalize_batch_to_estimate(const Graph& graph, const HostProfile& batched,
                                        const HostProfile& single,
                                        const HostSpeed& reference = HostSpeed::nominal());

}  // namespace coinfer
