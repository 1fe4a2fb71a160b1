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

HostProfile normalize_to_estimate(const Graph& graph, const HostProfile& measured,
                                  const HostSpeed& reference) {
  if (measured.layers.size() != graph.size())
    throw Error(fmt::format("normalize_to_estimate: profile of '{}' has {} layers, graph '{}' has {}",
                            measured.model, measured.layers.size(), graph.name(), graph.size()));
  if (on_estimate_basis(measured)) return measured;
  const HostProfile estimate = estimate_host_profile(graph, reference);
  std::vector<OpClass> classes;
  for (std::size_t index : graph.topological_order()) classes.push_back(op_class_of(graph.layer(index)));
  const auto measured_sum = class_sums(classes, measured), estimate_sum = class_sums(classes, estimate);

  HostProfile out = measured;
  out.basis = "normalized";
  for (std::size_t pos = 0; pos < classes.size(); ++pos) {
    const double m = measured_sum.at(classes[pos]);
    out.layers[pos] = m > 0.0 ? scaled(measured.layers[pos], estimate_sum.at(classes[pos]) / m)
                              : TimingStats{estimate.layers[pos].median_s, 0.0, measured.layers[pos].repeats,
                                            estimate.layers[pos].median_s};
  }
  for (auto& g : out.groups) {
    const double before = measured.range_sum_s(g.first, g.last), after = out.range_sum_s(g.first, g.last);
    g.stats =
        before > 0.0 ? scaled(g.stats, after / before) : TimingStats{after, 0.0, g.stats.repeats, after};
  }
  return out;
}

}  // namespace coinfer
