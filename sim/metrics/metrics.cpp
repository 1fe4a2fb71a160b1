#include "sim/metrics/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace coinfer {
namespace {

Json number_or_null(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

Json latency_summary_ms(const std::vector<double>& latencies_ms) {
  if (latencies_ms.empty())
    return Json{{"mean", nullptr}, {"p50", nullptr}, {"p95", nullptr}, {"max", nullptr}};
  double sum = 0;
  for (double x : latencies_ms) sum += x;
  return Json{{"mean", sum / static_cast<double>(latencies_ms.size())},
              {"p50", percentile_nearest_rank(latencies_ms, 50)},
              {"p95", percentile_nearest_rank(latencies_ms, 95)},
              {"max", *std::max_element(latencies_ms.begin(), latencies_ms.end())}};
}

std::string number_cell(double x) { return std::isfinite(x) ? fmt::format("{}", x) : ""; }

}  // namespace

double percentile_nearest_rank(std::vector<double> values, double p) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const auto n = static_cast<double>(values.size());
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * n));
  rank = std::clamp<std::size_t>(rank, 1, values.size());
  return values[rank - 1];
}

Json run_metrics(const std::string& scenario, const SimulationResult& result) {
  std::vector<double> latencies_ms;
  double first_release = std::numeric_limits<double>::infinity(), last_end = 0;
  std::size_t deadline_met = 0;
  for (const auto& f : result.frames) {
    first_release = std::min(first_release, f.release_s);
    if (!f.completed()) continue;
    latencies_ms.push_back(f.latency_s() * 1e3);
    last_end = std::max(last_end, f.end_s);
    deadline_met += f.deadline_met ? 1 : 0;
  }
  const double span = last_end - first_release;
  Json energy = Json::object(), busy = Json::object(), wake_ups = Json::object(), bytes = Json::object();
  for (const auto& d : result.devices) {
    energy[d.device] = d.energy_j;
    busy[d.device] = d.busy_s;
    wake_ups[d.device] = d.wake_ups;
  }
  for (const auto& l : result.links) bytes[l.link] = l.bytes;
  return Json{
      {"scenario", scenario},
      {"seed", result.seed},
      {"frames", result.frames.size()},
      {"completed", result.completed_frames()},
      {"dropped", result.dropped_frames()},
      {"deadline_met", deadline_met},
      {"latency_ms", latency_summary_ms(latencies_ms)},
      {"throughput_fps",
       latencies_ms.empty() || !(span > 0) ? Json(nullptr) : Json(double(latencies_ms.size()) / span)},
      {"energy_j", energy},
      {"bytes", bytes},
      {"busy_s", busy},
      {"wake_ups", wake_ups},
      {"analytic_latency_ms", result.analytic_latency_s.empty()
                                  ? Json(nullptr)
                                  : number_or_null(result.analytic_latency_s[0] * 1e3)},
      {"simulated_s", result.end_s},
      {"executions", result.executions},
      {"messages", result.messages},
      {"warnings", result.warnings}};
}

std::string frames_csv(const SimulationResult& result) {
  std::string out = "frame,variant,release_s,start_s,end_s,latency_ms,dropped,drop_reason,deadline_met\n";
  for (const auto& f : result.frames)
    out += fmt::format("{},{},{},{},{},{},{},{},{}\n", f.index, f.variant, number_cell(f.release_s),
                       number_cell(f.start_s), number_cell(f.end_s),
                       f.completed() ? number_cell(f.latency_s() * 1e3) : "", f.dropped ? 1 : 0,
                       f.drop_reason, f.deadline_met ? 1 : 0);
  return out;
}

}  // namespace coinfer
