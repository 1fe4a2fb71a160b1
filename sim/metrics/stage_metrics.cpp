#include "sim/metrics/stage_metrics.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <unordered_map>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

struct Span {
  double start_s = 1e300;
  double end_s = -1e300;
};

// Length of the union of intervals.
double union_length(std::vector<std::pair<double, double>> v) {
  std::sort(v.begin(), v.end());
  double total = 0.0, cur_b = 0.0, cur_e = -1e300;
  for (const auto& [b, e] : v) {
    if (b > cur_e) {
      if (cur_e > cur_b) total += cur_e - cur_b;
      cur_b = b;
      cur_e = e;
    } else {
      cur_e = std::max(cur_e, e);
    }
  }
  if (cur_e > cur_b) total += cur_e - cur_b;
  return total;
}

Json stage_kinds(const Json& stages, const Graph& graph) {
  // count, compute, transfer, bytes, to source, ms to source per sender, bytes per sender
  std::map<std::string, std::array<double, 7>> sums;
  for (const auto& [label, s] : stages.items()) {
    const Layer* l = graph.layer_by_name_or_null(label);
    if (!l) continue;
    auto& a = sums[std::string(op_name(l->op))];
    a[0] += 1;
    a[1] += s["compute_ms"].get<double>();
    a[2] += s["transfer_ms"].get<double>();
    a[3] += s["bytes"].get<double>();
    a[4] += s["bytes_to_source"].get<double>();
    a[5] += s["transfer_ms_to_source_per_sender"].get<double>();
    a[6] += s["bytes_to_source_per_sender"].get<double>();
  }
  Json out = Json::object();
  for (const auto& [op, a] : sums)
    out[op] = {{"stages", a[0]},
               {"mean_compute_ms", a[1] / a[0]},
               {"mean_transfer_ms", a[2] / a[0]},
               {"mean_bytes", a[3] / a[0]},
               {"mean_bytes_to_source", a[4] / a[0]},
               {"mean_transfer_ms_to_source_per_sender", a[5] / a[0]},
               {"mean_bytes_to_source_per_sender", a[6] / a[0]}};
  return out;
}

// The stages a figure of per-stage times names: the slowest compute stage, the largest transfer and
// the first and last stage that transfers, in plan order.
Json stage_summary(const Json& stages, const Json& order) {
  double max_compute = 0.0, max_transfer = 0.0, first = 0.0, last = 0.0;
  bool seen = false;
  for (const auto& label : order) {
    const Json& s = stages.at(label.get<std::string>());
    max_compute = std::max(max_compute, s["compute_ms"].get<double>());
    if (s["transfers"].get<int>() == 0) continue;
    const double ms = s["transfer_ms"].get<double>();
    max_transfer = std::max(max_transfer, ms);
    if (!seen) first = ms;
    seen = true;
    last = ms;
  }
  return {{"max_compute_ms", max_compute},
          {"max_transfer_ms", max_transfer},
          {"first_transfer_ms", first},
          {"last_transfer_ms", last}};
}

}  // namespace

Json stage_metrics(const Plan& plan, const SimulationResult& result, const Graph& graph,
                   const std::string& source) {
  if (result.frames.empty() || (result.trace.empty() && !plan.tasks.empty()))
    throw Error("stage metrics need a run with a frame and a recorded trace");
  std::unordered_map<std::string, Span> transfer_span;
  std::vector<std::pair<double, double>> compute, delivering;
  for (const auto& e : result.trace) {
    if (e.frame != 0) continue;
    if (e.category == "compute") compute.emplace_back(e.start_s, e.end_s);
    if (e.category == "transfer" || e.category == "wake-up") delivering.emplace_back(e.start_s, e.end_s);
    if (e.category != "transfer") continue;
    auto& s = transfer_span[e.name];
    s.start_s = std::min(s.start_s, e.start_s);
    s.end_s = std::max(s.end_s, e.end_s);
  }
  Json stages = Json::object(), order = Json::array();
  std::map<std::string, std::map<std::string, double>> busy;  // label -> device -> compute s
  double to_source = 0.0, from_source = 0.0, between = 0.0;
  std::map<std::string, std::set<std::string>> senders_to_source;  // label -> devices
  std::map<std::string, double> to_source_ms;                      // label -> on-air ms
  for (const auto& t : plan.tasks) {
    if (!stages.contains(t.label)) {
      stages[t.label] = {{"compute_ms", 0.0},
                         {"transfer_ms", 0.0},
                         {"bytes", 0.0},
                         {"bytes_to_source", 0.0},
                         {"transfers", 0}};
      order.push_back(t.label);
    }
    Json& s = stages[t.label];
    if (t.kind == TaskKind::Compute) {
      busy[t.label][t.device] += t.duration_s;
      continue;
    }
    s["bytes"] = s["bytes"].get<double>() + t.bytes;
    if (t.dst == source) {
      s["bytes_to_source"] = s["bytes_to_source"].get<double>() + t.bytes;
      senders_to_source[t.label].insert(t.src);
    }
    (t.dst == source ? to_source : t.src == source ? from_source : between) += t.bytes;
    s["transfers"] = s["transfers"].get<int>() + 1;
    if (const auto it = transfer_span.find(t.id); it != transfer_span.end()) {
      const double ms = 1e3 * (it->second.end_s - it->second.start_s);
      s["transfer_ms"] = s["transfer_ms"].get<double>() + ms;
      if (t.dst == source) to_source_ms[t.label] += ms;
    }
  }
  for (auto& [label, st] : stages.items()) {
    const auto senders = senders_to_source[label].size();
    st["transfer_ms_to_source_per_sender"] = senders > 0 ? to_source_ms[label] / senders : 0.0;
    st["bytes_to_source_per_sender"] = senders > 0 ? st["bytes_to_source"].get<double>() / senders : 0.0;
  }
  for (const auto& [label, per_device] : busy) {
    double most = 0.0;
    for (const auto& [d, s] : per_device) most = std::max(most, s);
    stages[label]["compute_ms"] = 1e3 * most;
  }
  const auto& f = result.frames.front();
  const double latency_s = f.end_s - f.release_s;
  const double computing_s = union_length(compute);
  return {{"stages", stages},
          {"stage_order", order},
          {"stage_kinds", stage_kinds(stages, graph)},
          {"stage_summary", stage_summary(stages, order)},
          {"compute_ms", 1e3 * computing_s},
          {"delivery_ms", 1e3 * union_length(delivering)},
          {"exposed_delivery_ms", 1e3 * (latency_s - computing_s)},
          {"bytes_to_source", to_source},
          {"bytes_from_source", from_source},
          {"bytes_between_others", between}};
}

}  // namespace coinfer
