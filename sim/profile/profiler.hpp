#pragma once
/// The host profiler: runs every layer of a model as a real kernel (sim/kernels) on seeded
/// weights and inputs, and reports the median and interquartile range of each layer's time, and
/// of runs of consecutive layers executed as one group (JointDNN sec. 2.2: a group's time is not
/// the sum of its layers').
///
/// - Layers are timed inside whole forward passes (`warmup` untimed passes, then `repeats` timed
///   ones; activations freed after their last consumer, as `coinfer infer` runs), so each layer
///   sees the cache state and allocation pattern of a real pass; a layer's sample is its kernel
///   plus the frees it triggers, minus the measured cost of one clock read.
/// - A group [first, last] is run on its own, `warmup` + `repeats` times, on the inputs a forward
///   pass gives it.
/// - The clock is the thread's CPU time while kernels run single-threaded (the default), so that
///   other processes on a shared machine do not inflate the timings; wall time with kernel threads.
///
/// Results are cached on disk (JSON under $COINFER_CACHE_DIR, else ~/.cache/coinfer), keyed by
/// model name, graph structure, kernel build, executable, clock, host CPU and batch size; group timings are
/// keyed by their layer range inside the entry. A cached entry with at least the requested repeats
/// and every requested group is returned without running anything.
///
///     ProfileOptions o;
///     o.repeats = 7;
///     o.groups = {{0, graph.size() - 1}};         // also time the whole model as one group
///     HostProfile p = profile_model(graph, o);    // p.layers[pos].median_s
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/graph/graph.hpp"
#include "sim/profile/host_profile.hpp"

namespace coinfer {

using LayerRange = std::pair<std::size_t, std::size_t>;  ///< [first, last] topological positions

struct ProfileOptions {
  int warmup = 1;
  int repeats = 5;
  std::vector<LayerRange> groups;  ///< ranges to time as one group (besides every single layer)
  std::uint64_t seed = 1;          ///< weights and inputs
  /// Inputs per kernel call: every layer (and group) is timed running `batch` inputs together
  /// (sim/kernels/batched.hpp: one GEMM over the batch for conv and fc), so its time is that of
  /// a batch, not of one input. Part of the cache key.
  std::int64_t batch = 1;
  bool use_cache = true;
  std::string cache_dir;  ///< empty: $COINFER_CACHE_DIR, else $HOME/.cache/coinfer
  /// Called after each timed unit of `profile_model` (a pass over every layer, or one group) with
  /// the units done and their total, so that a caller can show progress; not part of the cache key.
  std::function<void(std::size_t done, std::size_t total)> progress{};
};

/// Profiles an inferred graph on this host (basis "profile"). Throws `Error` for bad options
/// (repeats < 1, warmup < 0, a group outside the graph) and on kernel failures.
HostProfile profile_model(const Graph& graph, const ProfileOptions& options);

/// Median and IQR of whole-model forward passes (all weights made beforehand, activations freed
/// after their last consumer, as `coinfer infer` runs), after `warmup` untimed passes. Not cached.
TimingStats time_forward(const Graph& graph, int warmup, int repeats, std::uint64_t seed = 1);

/// Per-layer timings (as `profile_model` measures them) and whole-model forward timings (as
/// `time_forward`), from the same run: both sides of the fidelity benchmark.
struct PairedTiming {
  std::vector<TimingStats> layers;  ///< per topological position
  TimingStats forward;              ///< whole passes without per-layer clock reads
};

/// `repeats` passes timed layer by layer alternating with `repeats` passes timed whole (the
/// order swapped every round), after `warmup` untimed rounds, so that both kinds see the same
/// machine state (clock frequency, other processes' cache pressure). Not cached. Throws `Error`
/// as `profile_model` does.
///
///     PairedTiming t = time_layers_and_forward(graph, 1, 9);   // t.forward.median_s
PairedTiming time_layers_and_forward(const Graph& graph, int warmup, int repeats, std::uint64_t seed = 1);

/// Median and IQR (q3 - q1, linear interpolation) of samples; throws `Error` when empty.
TimingStats timing_stats(std::vector<double> samples_s);

/// Every range of 2..max_length consecutive positions of an n-layer model, then the whole model.
std::vector<LayerRange> consecutive_groups(std::size_t layers, std::size_t max_length);

/// The cache directory `options` resolves to.
std::string profile_cache_dir(const ProfileOptions& options);
/// Kernel build + executable identity used in cache keys.
std::string profiler_build_id();

/// The profiler's clock (seconds): this thread's CPU time when kernels run single-threaded, wall
/// time with kernel threads.
double profiler_clock_s();

/// The forward pass's name in the profile cache (`profile_model`'s entries).
inline const std::string kForwardPass = "forward";

/// A pass's profile (`kForwardPass`, "backward", ...) in the disk cache (sim/profile/profile_cache.cpp),
/// keyed by model, graph, build, host, seed, clock, warm-up and batch, plus `pass` for any pass but
/// the forward one, in the file `<pass>-<model>-<hash>.json` (`profile-...` for the forward pass):
/// the cached profile, or nothing (missing, foreign or corrupt), and a best-effort store.
std::optional<HostProfile> cached_profile(const Graph& graph, const ProfileOptions& options,
                                          const std::string& pass);
void cache_profile(const Graph& graph, const ProfileOptions& options, const std::string& pass,
                   const HostProfile& profile);

}  // namespace coinfer
