#include "sim/metrics/user_metrics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "sim/metrics/percentile.hpp"

namespace coinfer {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Json finite_or_null(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

void append_cell(std::string& out, double x) {
  out += ',';
  if (std::isfinite(x)) out += fmt::format("{}", x);
}

}  // namespace

std::vector<UserMetrics> user_metrics(const SimulationResult& result) {
  std::map<std::string, double> energy;
  for (const auto& d : result.devices) energy[d.device] = d.energy_j;
  std::vector<UserMetrics> out;
  std::vector<std::uint64_t> scratch;  // each user's latencies, for kth_smallest
  for (const auto& u : result.users) {
    UserMetrics m;
    m.name = u.name;
    m.device = u.device;
    m.frames = u.frames;
    m.energy_j = energy.count(u.device) ? energy.at(u.device) : kNaN;
    const auto begin = result.frames.begin() + static_cast<std::ptrdiff_t>(u.first_frame);
    const auto end = begin + static_cast<std::ptrdiff_t>(u.frames);
    double first_release = std::numeric_limits<double>::infinity(), last_end = 0.0, max_ms = kNaN;
    for (auto f = begin; f != end; ++f) {
      first_release = std::min(first_release, f->release_s);
      m.dropped += f->dropped() ? 1 : 0;
      if (!f->completed()) continue;
      ++m.completed;
      m.deadline_met += f->deadline_met ? 1 : 0;
      last_end = std::max(last_end, f->end_s);
      max_ms = std::isnan(max_ms) ? f->latency_s() * 1e3 : std::max(max_ms, f->latency_s() * 1e3);
    }
    m.max_ms = max_ms;
    m.p50_ms = m.p95_ms = kNaN;
    if (m.completed > 0) {
      const auto each_latency = [&](auto&& visit) {
        for (auto f = begin; f != end; ++f)
          if (f->completed()) visit(f->latency_s() * 1e3);
      };
      const auto [p50, p95] = kth_smallest(
          each_latency, std::array{nearest_rank(m.completed, 50), nearest_rank(m.completed, 95)}, scratch);
      m.p50_ms = p50;
      m.p95_ms = p95;
      const double span = last_end - first_release;
      m.throughput_fps = span > 0.0 ? static_cast<double>(m.completed) / span : 0.0;
    }
    m.within_slo = m.frames > 0 && m.deadline_met >= nearest_rank(m.frames, 95);
    out.push_back(std::move(m));
  }
  return out;
}

double jain_index(const std::vector<double>& x) {
  double sum = 0.0, squares = 0.0;
  for (double v : x) {
    sum += v;
    squares += v * v;
  }
  if (x.empty() || !(squares > 0.0)) return kNaN;
  return sum * sum / (static_cast<double>(x.size()) * squares);
}

Json population_metrics(const SimulationResult& result) {
  const auto users = user_metrics(result);
  std::vector<double> p95, throughput;
  std::size_t within = 0;
  for (const auto& u : users) {
    if (!std::isnan(u.p95_ms)) p95.push_back(u.p95_ms);
    throughput.push_back(u.throughput_fps);
    within += u.within_slo ? 1 : 0;
  }
  Json p95_json{{"min", nullptr}, {"median", nullptr}, {"max", nullptr}};
  if (!p95.empty()) {
    std::sort(p95.begin(), p95.end());
    p95_json =
        Json{{"min", p95.front()}, {"median", p95[nearest_rank(p95.size(), 50) - 1]}, {"max", p95.back()}};
  }
  return Json{{"users", users.size()},
              {"users_within_slo", within},
              {"p95_ms", std::move(p95_json)},
              {"jain_throughput", finite_or_null(jain_index(throughput))}};
}

std::string users_csv(const SimulationResult& result) {
  std::string out =
      "user,device,frames,completed,dropped,deadline_met,p50_ms,p95_ms,max_ms,throughput_fps,energy_j,"
      "within_slo\n";
  for (const auto& u : user_metrics(result)) {
    out +=
        fmt::format("{},{},{},{},{},{}", u.name, u.device, u.frames, u.completed, u.dropped, u.deadline_met);
    for (double x : {u.p50_ms, u.p95_ms, u.max_ms, u.throughput_fps, u.energy_j}) append_cell(out, x);
    out += u.within_slo ? ",true\n" : ",false\n";
  }
  return out;
}

}  // namespace coinfer
