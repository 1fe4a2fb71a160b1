#include "sim/replay/simulation_result.hpp"

#include <cmath>
#include <limits>

namespace coinfer {
namespace {

// JSON has no NaN: an absent time (a dropped frame's start or end) is written as null.
Json time_json(double t) { return std::isnan(t) ? Json(nullptr) : Json(t); }
double time_from(const Json& j) {
  return j.is_null() ? std::numeric_limits<double>::quiet_NaN() : j.get<double>();
}

Json frame_json(std::size_t index, const FrameRecord& f) {
  Json j = {{"index", index},
            {"variant", f.variant},
            {"release_s", f.release_s},
            {"start_s", time_json(f.start_s)},
            {"end_s", time_json(f.end_s)},
            {"dropped", f.dropped()},
            {"deadline_met", f.deadline_met}};
  if (f.dropped()) j["drop_reason"] = std::string(drop_reason_name(f.drop_reason));
  return j;
}

DropReason drop_reason_from(const Json& j) {
  const auto name = j.value("drop_reason", "");
  for (auto r : {DropReason::Busy, DropReason::Late, DropReason::Scheduler, DropReason::Expired})
    if (name == drop_reason_name(r)) return r;
  return DropReason::None;
}

FrameRecord frame_from(const Json& j) {
  FrameRecord f;
  f.variant = j.at("variant").get<std::uint32_t>();
  f.release_s = j.at("release_s").get<double>();
  f.start_s = time_from(j.at("start_s"));
  f.end_s = time_from(j.at("end_s"));
  f.drop_reason = drop_reason_from(j);
  f.deadline_met = j.at("deadline_met").get<bool>();
  return f;
}

}  // namespace

std::size_t SimulationResult::completed_frames() const {
  std::size_t n = 0;
  for (const auto& f : frames) n += f.completed() ? 1 : 0;
  return n;
}

std::size_t SimulationResult::dropped_frames() const {
  std::size_t n = 0;
  for (const auto& f : frames) n += f.dropped() ? 1 : 0;
  return n;
}

Json simulation_result_to_json(const SimulationResult& r) {
  Json frames = Json::array();
  for (std::size_t k = 0; k < r.frames.size(); ++k) frames.push_back(frame_json(k, r.frames[k]));
  Json devices = Json::array();
  for (const auto& d : r.devices) {
    devices.push_back({{"device", d.device},
                       {"busy_s", d.busy_s},
                       {"executions", d.executions},
                       {"compute_energy_j", d.compute_energy_j},
                       {"radio_energy_j", d.radio_energy_j},
                       {"energy_j", d.energy_j},
                       {"active_energy_j", d.active_energy_j},
                       {"bytes_sent", d.bytes_sent},
                       {"bytes_received", d.bytes_received},
                       {"wake_ups", d.wake_ups}});
    // Present only for a device that paid for probes, so runs without probes keep their bytes.
    if (d.probe_radio_energy_j > 0.0) devices.back()["probe_radio_energy_j"] = d.probe_radio_energy_j;
    // Present only for a device that ran background jobs, so runs without them keep their bytes.
    if (d.background_jobs > 0) {
      devices.back()["background_jobs"] = d.background_jobs;
      devices.back()["background_busy_s"] = d.background_busy_s;
    }
    // Present only for a device that ran batches (Device::batching).
    if (d.batches > 0) {
      devices.back()["batches"] = d.batches;
      devices.back()["batched_tasks"] = d.batched_tasks;
    }
  }
  Json links = Json::array();
  for (const auto& l : r.links) {
    links.push_back({{"link", l.link},
                     {"network", l.network},
                     {"bytes", l.bytes},
                     {"messages", l.messages},
                     {"busy_s", l.busy_s}});
    // Present only on a link that carried probes, so runs without probes keep their bytes.
    if (l.probes > 0) {
      links.back()["probes"] = l.probes;
      links.back()["probe_bytes"] = l.probe_bytes;
    }
  }
  Json trace = Json::array();
  for (const auto& e : r.trace)
    trace.push_back({{"track", e.track},
                     {"name", e.name},
                     {"category", e.category},
                     {"start_s", e.start_s},
                     {"end_s", e.end_s},
                     {"frame", e.frame},
                     {"label", e.label}});
  Json out = {{"seed", r.seed},
              {"end_s", r.end_s},
              {"executions", r.executions},
              {"messages", r.messages},
              {"analytic_latency_s", r.analytic_latency_s},
              {"warnings", r.warnings},
              {"frames", std::move(frames)},
              {"devices", std::move(devices)},
              {"links", std::move(links)},
              {"trace_tracks", r.trace_tracks},
              {"trace", std::move(trace)}};
  // Present only when a scheduler filled them, so runs without one keep their bytes.
  if (!r.frame_scores.empty()) {
    Json scores = Json::array();
    for (double x : r.frame_scores) scores.push_back(std::isnan(x) ? Json(nullptr) : Json(x));
    out["frame_scores"] = std::move(scores);
  }
  if (!r.frame_columns.empty()) {
    Json columns = Json::array();
    for (const auto& c : r.frame_columns) {
      Json values = Json::array();
      for (double x : c.values) values.push_back(std::isnan(x) ? Json(nullptr) : Json(x));
      columns.push_back({{"name", c.name}, {"values", std::move(values)}});
    }
    out["frame_columns"] = std::move(columns);
  }
  if (!r.scheduler_metrics.empty()) out["scheduler_metrics"] = r.scheduler_metrics;
  if (!r.users.empty()) {
    Json users = Json::array();
    for (const auto& u : r.users)
      users.push_back(
          {{"name", u.name}, {"device", u.device}, {"first_frame", u.first_frame}, {"frames", u.frames}});
    out["users"] = std::move(users);
  }
  return out;
}

SimulationResult simulation_result_from_json(const Json& j) {
  SimulationResult r;
  r.seed = j.at("seed").get<std::uint64_t>();
  r.end_s = j.at("end_s").get<double>();
  r.executions = j.at("executions").get<std::size_t>();
  r.messages = j.at("messages").get<std::size_t>();
  r.analytic_latency_s = j.at("analytic_latency_s").get<std::vector<double>>();
  r.warnings = j.at("warnings").get<std::vector<std::string>>();
  for (const auto& f : j.at("frames")) r.frames.push_back(frame_from(f));
  for (const auto& d : j.at("devices")) {
    DeviceStats s;
    s.device = d.at("device").get<std::string>();
    s.busy_s = d.at("busy_s").get<double>();
    s.executions = d.at("executions").get<std::size_t>();
    s.compute_energy_j = d.at("compute_energy_j").get<double>();
    s.radio_energy_j = d.at("radio_energy_j").get<double>();
    s.energy_j = d.at("energy_j").get<double>();
    s.active_energy_j = d.at("active_energy_j").get<double>();
    s.bytes_sent = d.at("bytes_sent").get<double>();
    s.bytes_received = d.at("bytes_received").get<double>();
    s.wake_ups = d.at("wake_ups").get<std::size_t>();
    s.probe_radio_energy_j = d.value("probe_radio_energy_j", 0.0);
    s.background_jobs = d.value("background_jobs", std::size_t{0});
    s.background_busy_s = d.value("background_busy_s", 0.0);
    s.batches = d.value("batches", std::size_t{0});
    s.batched_tasks = d.value("batched_tasks", std::size_t{0});
    r.devices.push_back(std::move(s));
  }
  for (const auto& l : j.at("links")) {
    LinkStats s;
    s.link = l.at("link").get<std::string>();
    s.network = l.at("network").get<std::string>();
    s.bytes = l.at("bytes").get<double>();
    s.messages = l.at("messages").get<std::size_t>();
    s.busy_s = l.at("busy_s").get<double>();
    s.probes = l.value("probes", std::size_t{0});
    s.probe_bytes = l.value("probe_bytes", 0.0);
    r.links.push_back(std::move(s));
  }
  r.trace_tracks = j.at("trace_tracks").get<std::vector<std::string>>();
  if (j.contains("frame_scores"))
    for (const auto& x : j.at("frame_scores"))
      r.frame_scores.push_back(x.is_null() ? std::numeric_limits<double>::quiet_NaN() : x.get<double>());
  if (j.contains("frame_columns"))
    for (const auto& c : j.at("frame_columns")) {
      FrameColumn column{c.at("name").get<std::string>(), {}};
      for (const auto& x : c.at("values")) column.values.push_back(time_from(x));
      r.frame_columns.push_back(std::move(column));
    }
  if (j.contains("scheduler_metrics"))
    r.scheduler_metrics = j.at("scheduler_metrics").get<std::map<std::string, double>>();
  if (j.contains("users"))
    for (const auto& u : j.at("users"))
      r.users.push_back({u.at("name").get<std::string>(), u.at("device").get<std::string>(),
                         u.at("first_frame").get<std::size_t>(), u.at("frames").get<std::size_t>()});
  for (const auto& e : j.at("trace"))
    r.trace.push_back({e.at("track").get<std::size_t>(), e.at("name").get<std::string>(),
                       e.at("category").get<std::string>(), e.at("start_s").get<double>(),
                       e.at("end_s").get<double>(), e.at("frame").get<std::size_t>(),
                       e.at("label").get<std::string>()});
  return r;
}

}  // namespace coinfer
