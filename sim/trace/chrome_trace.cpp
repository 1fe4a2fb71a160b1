#include "sim/trace/chrome_trace.hpp"

#include <string>

namespace coinfer {
namespace {

constexpr int kDevicePid = 1;
constexpr int kLinkPid = 2;

Json metadata(const char* what, int pid, int tid, const std::string& name) {
  Json j = {{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}};
  if (tid >= 0) j["tid"] = tid;
  return j;
}

}  // namespace

Json chrome_trace_json(const SimulationResult& result) {
  Json events = Json::array();
  events.push_back(metadata("process_name", kDevicePid, -1, "devices"));
  events.push_back(metadata("process_name", kLinkPid, -1, "network"));
  // Tracks: the devices first (pid 1), then links and radios (pid 2); tid = track index.
  const auto n_devices = result.devices.size();
  auto pid_of = [&](std::size_t track) { return track < n_devices ? kDevicePid : kLinkPid; };
  for (std::size_t t = 0; t < result.trace_tracks.size(); ++t) {
    events.push_back(metadata("thread_name", pid_of(t), static_cast<int>(t), result.trace_tracks[t]));
    events.push_back({{"name", "thread_sort_index"},
                      {"ph", "M"},
                      {"pid", pid_of(t)},
                      {"tid", t},
                      {"args", {{"sort_index", t}}}});
  }
  for (const auto& e : result.trace) {
    Json args = {{"frame", e.frame}};
    if (!e.label.empty()) args["label"] = e.label;
    events.push_back({{"name", e.name},
                      {"cat", e.category},
                      {"ph", "X"},
                      {"pid", pid_of(e.track)},
                      {"tid", e.track},
                      {"ts", e.start_s * 1e6},
                      {"dur", (e.end_s - e.start_s) * 1e6},
                      {"args", std::move(args)}});
  }
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
}

}  // namespace coinfer
