#include "sim/profile/estimate_normalization.hpp"

#include <map>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

TimingStats scaled(const TimingStats& s, double factor) {
  return {s.median_s * factor, s.iqr_s * factor, s.repeats, s.mean_s * factor};
}

// Sum of the medians of each op class over the model.
std::map<OpClass, double> class_sums(const std::vector<OpClass>& classes, const HostProfile& p) {
  std::map<OpClass, double> out;
  for (std::size_t pos = 0; pos < classes.size(); ++pos) out[classes[pos]] += p.layers[pos].median_s;
  return out;
}

}  // namespace

bool on_estimate_basis(const HostProfile& profile) {
  return profile.basis == "normalized" ||
         (profile.basis == "estimate" && profile.host_cpu == kNominalHostName);
}

namespace {

void check_layers(const Graph& graph, const HostProfile& p) {
  if (p.layers.size() != graph.size())
    throw Error(fmt::format("normalize_to_estimate: profile of '{}' has {} layers, graph '{}' has {}",
                            p.model, p.layers.size(), graph.name(), graph.size()));
}

// `target` rescaled per op class by E_c / M_c of `basis` (the measured profile whose class sums
// against the batch-1 estimate give the host's speed); a class measured as zero takes the estimate
// at target's batch.
HostProfile rescale_by_class(const Graph& graph, const HostProfile& basis, const HostProfile& target,
                             const HostSpeed& reference) {
  const HostProfile estimate = estimate_host_profile(graph, reference);
  const HostProfile fallback = estimate_host_profile(graph, reference, target.batch);
  std::vector<OpClass> classes;
  for (std::size_t index : graph.topological_order()) classes.push_back(op_class_of(graph.layer(index)));
  const auto measured_sum = class_sums(classes, basis), estimate_sum = class_sums(classes, estimate);

  HostProfile out = target;
  out.basis = "normalized";
  for (std::size_t pos = 0; pos < classes.size(); ++pos) {
    const double m = measured_sum.at(classes[pos]);
    out.layers[pos] = m > 0.0 ? scaled(target.layers[pos], estimate_sum.at(classes[pos]) / m)
                              : TimingStats{fallback.layers[pos].median_s, 0.0, target.layers[pos].repeats,
                                            fallback.layers[pos].median_s};
  }
  for (auto& g : out.groups) {
    const double before = target.range_sum_s(g.first, g.last), after = out.range_sum_s(g.first, g.last);
    g.stats =
        before > 0.0 ? scaled(g.stats, after / before) : TimingStats{after, 0.0, g.stats.repeats, after};
  }
  return out;
}

}  // namespace

HostProfile normalize_to_estimate(const Graph& graph, const HostProfile& measured,
                                  const HostSpeed& reference) {
  check_layers(graph, measured);
  if (on_estimate_basis(measured)) return measured;
  return rescale_by_class(graph, measured, measured, reference);
}

HostProfile normalize_batch_to_estimate(const Graph& graph, const HostProfile& batched,
                                        const HostProfile& single, const HostSpeed& reference) {
  if (single.batch != 1) throw Error("normalize_batch_to_estimate: the reference profile is not at batch 1");
  check_layers(graph, batched);
  check_layers(graph, single);
  if (on_estimate_basis(batched)) return batched;
  return rescale_by_class(graph, single, batched, reference);
}

}  // namespace coinfer
