#include "sim/metrics/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include <fmt/compile.h>

namespace coinfer {
namespace {

Json number_or_null(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

// Every completed frame's latency in ms, in frame order.
template <class Visit>
void for_each_latency_ms(const std::vector<FrameRecord>& frames, Visit&& visit) {
  for (const auto& f : frames)
    if (f.completed()) visit(f.latency_s() * 1e3);
}

// Mean (summed in frame order), nearest-rank p50 / p95, max of the completed frames' latencies.
Json latency_summary_ms(const std::vector<FrameRecord>& frames) {
  std::size_t n = 0;
  double sum = 0, max = -std::numeric_limits<double>::infinity();
  for_each_latency_ms(frames, [&](double x) {
    ++n;
    sum += x;
    max = std::max(max, x);
  });
  if (n == 0) return Json{{"mean", nullptr}, {"p50", nullptr}, {"p95", nullptr}, {"max", nullptr}};
  const auto [p50, p95] = kth_smallest([&](auto&& visit) { for_each_latency_ms(frames, visit); },
                                       std::array{nearest_rank(n, 50), nearest_rank(n, 95)});
  return Json{{"mean", sum / static_cast<double>(n)}, {"p50", p50}, {"p95", p95}, {"max", max}};
}

void append_number_cell(fmt::memory_buffer& out, double x) {
  if (std::isfinite(x)) fmt::format_to(fmt::appender(out), FMT_COMPILE("{}"), x);
}

}  // namespace

Json run_metrics(const std::string& scenario, const SimulationResult& result) {
  double first_release = std::numeric_limits<double>::infinity(), last_end = 0;
  std::size_t completed = 0, dropped = 0, deadline_met = 0;
  for (const auto& f : result.frames) {
    first_release = std::min(first_release, f.release_s);
    dropped += f.dropped() ? 1 : 0;
    if (!f.completed()) continue;
    ++completed;
    last_end = std::max(last_end, f.end_s);
    deadline_met += f.deadline_met ? 1 : 0;
  }
  const double span = last_end - first_release;
  Json energy = Json::object(), active = Json::object(), busy = Json::object(), wake_ups = Json::object(),
       bytes = Json::object();
  for (const auto& d : result.devices) {
    energy[d.device] = d.energy_j;
    active[d.device] = d.active_energy_j;
    busy[d.device] = d.busy_s;
    wake_ups[d.device] = d.wake_ups;
  }
  Json probes = Json::object(), probe_bytes = Json::object(), probe_energy = Json::object();
  Json background_jobs = Json::object(), background_busy = Json::object(), batch_size = Json::object();
  for (const auto& d : result.devices) {
    if (d.probe_radio_energy_j > 0.0) probe_energy[d.device] = d.probe_radio_energy_j;
    if (d.batches > 0)
      batch_size[d.device] =
          static_cast<double>(d.batched_tasks + d.executions - d.batches - d.background_jobs) /
          static_cast<double>(d.executions - d.background_jobs);
    if (d.background_jobs == 0) continue;
    background_jobs[d.device] = d.background_jobs;
    background_busy[d.device] = d.background_busy_s;
  }
  for (const auto& l : result.links) {
    bytes[l.link] = l.bytes;
    if (l.probes == 0) continue;
    probes[l.link] = l.probes;
    probe_bytes[l.link] = l.probe_bytes;
  }
  Json out =
      Json{{"scenario", scenario},
           {"seed", result.seed},
           {"frames", result.frames.size()},
           {"completed", completed},
           {"dropped", dropped},
           {"deadline_met", deadline_met},
           {"latency_ms", latency_summary_ms(result.frames)},
           {"throughput_fps", completed == 0 || !(span > 0) ? Json(nullptr) : Json(double(completed) / span)},
           {"energy_j", energy},
           {"active_energy_j", active},
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
  // Probe transfers (Scheduler::take_probes) per link, only when some were sent: runs without them
  // keep their bytes. `bytes` and `messages` include them.
  if (!probes.empty()) {
    out["probes"] = std::move(probes);
    out["probe_bytes"] = std::move(probe_bytes);
    out["probe_radio_energy_j"] = std::move(probe_energy);
  }
  // Background jobs (Scheduler::take_background) per device, only when some ran. `busy_s` and
  // `executions` include them.
  if (!background_jobs.empty()) {
    out["background_jobs"] = std::move(background_jobs);
    out["background_busy_s"] = std::move(background_busy);
  }
  // Dynamic batching (Device::batching) per device, only where some execution ran a batch: the
  // mean number of tasks per execution (a lone task counts as a batch of 1).
  if (!batch_size.empty()) out["batch_size_mean"] = std::move(batch_size);
  return out;
}

void append_frames_csv_row(fmt::memory_buffer& out, std::size_t index, const FrameRecord& f) {
  fmt::format_to(fmt::appender(out), FMT_COMPILE("{},{},"), index, f.variant);
  append_number_cell(out, f.release_s);
  out.push_back(',');
  append_number_cell(out, f.start_s);
  out.push_back(',');
  append_number_cell(out, f.end_s);
  out.push_back(',');
  if (f.completed()) append_number_cell(out, f.latency_s() * 1e3);
  const auto reason = drop_reason_name(f.drop_reason);
  fmt::format_to(fmt::appender(out), FMT_COMPILE(",{},{},{}\n"), f.dropped() ? 1 : 0, reason,
                 f.deadline_met ? 1 : 0);
}

std::string frames_csv(const SimulationResult& result) {
  fmt::memory_buffer out;
  out.append(kFramesCsvHeader.data(), kFramesCsvHeader.data() + kFramesCsvHeader.size());
  for (std::size_t k = 0; k < result.frames.size(); ++k) append_frames_csv_row(out, k, result.frames[k]);
  return fmt::to_string(out);
}

}  // namespace coinfer
