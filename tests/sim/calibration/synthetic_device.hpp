#pragma once
// A made-up device for the profile-fit tests: every layer with work takes its nominal host
// estimate (the basis `calibrate --from-profile` fits against by default) times a known scale of
// its op class, so a correct match and fit give those scales back.
#include <string>
#include <vector>

#include "sim/calibration/op_class.hpp"
#include "sim/graph/graph.hpp"
#include "sim/profile/host_estimate.hpp"

namespace coinfer::test {

/// conv 20x the nominal host, pool 5x, elementwise 8x, fc 12x, every other class 3x.
inline double synthetic_scale(OpClass c) {
  switch (c) {
    case OpClass::Conv:
      return 20.0;
    case OpClass::Pool:
      return 5.0;
    case OpClass::Elementwise:
      return 8.0;
    case OpClass::Fc:
      return 12.0;
    default:
      return 3.0;
  }
}

struct TimedLayer {
  std::string name;
  double ms = 0.0;
};

/// Per layer with work, in topological order: its name and its time on the device, ms.
inline std::vector<TimedLayer> synthetic_layer_times(const Graph& g) {
  const HostProfile host = estimate_host_profile(g, HostSpeed::nominal());
  const auto& order = g.topological_order();
  std::vector<TimedLayer> out;
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    const Layer& l = g.layer(order[pos]);
    if (l.op != OpKind::Input)
      out.push_back({l.name, host.layers[pos].median_s * synthetic_scale(op_class_of(l)) * 1e3});
  }
  return out;
}

}  // namespace coinfer::test
