#pragma once
/// Measured host time of every layer's backward pass (`coinfer profile M --backward`): each
/// layer's backward kernels (sim/kernels `*_backward` through `kernels::backward_layer`: the input
/// gradient and the weight gradient) run on the real tensors of a seeded forward pass
/// (sim/functional/forward_pass.hpp) and a seeded N(0, 1) output gradient, `warmup` untimed then
/// `repeats` timed runs, median and IQR per layer; dropout runs `dropout_backward` with an all-ones
/// mask, batch_norm differentiates training mode (statistics of its input). The clock is the
/// profiler's (thread CPU time single-threaded, wall time with kernel threads). Per layer only:
/// `ProfileOptions::groups` must be empty.
///
/// Cached apart from forward profiles (file `backward-<model>-<hash>.json` in the profiler's cache
/// directory, key: model, graph, kernel build, host CPU, seed, clock, warmup, "pass": "backward").
/// Basis "profile". Device backward times apply the device's forward op_scale to these host times
/// (no seed reports device backward timings).
///
///     HostProfile b = profile_backward(graph, ProfileOptions{});   // b.layers[pos].median_s
#include "sim/graph/graph.hpp"
#include "sim/profile/host_profile.hpp"
#include "sim/profile/profiler.hpp"

namespace coinfer {

/// Throws `InputError("", "model", "model 'm': layer 'x' (lstm) has no backward kernel ...")`, and
/// `Error` for bad options (repeats < 1, warmup < 0, groups given).
HostProfile profile_backward(const Graph& graph, const ProfileOptions& options);

}  // namespace coinfer
