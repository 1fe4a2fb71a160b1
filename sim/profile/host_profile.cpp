#include "sim/profile/host_profile.hpp"

#include <fstream>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

Json stats_to_json(const TimingStats& s) {
  return {{"median_s", s.median_s}, {"iqr_s", s.iqr_s}, {"mean_s", s.mean_s}, {"repeats", s.repeats}};
}

TimingStats stats_from_json(const Json& j, const std::string& p) {
  TimingStats s;
  s.median_s = json_number(j, "median_s", p, 0.0);
  s.iqr_s = json_number(j, "iqr_s", p, 0.0);
  s.mean_s = json_number_or(j, "mean_s", p, s.median_s, 0.0);
  s.repeats = static_cast<int>(json_int(j, "repeats", p, 0, 1 << 30));
  return s;
}

}  // namespace

double HostProfile::range_sum_s(std::size_t first, std::size_t last) const {
  if (first > last || last >= layers.size())
    throw Error(fmt::format("layer range [{}, {}] outside the {} profiled layers of '{}'", first, last,
                            layers.size(), model));
  double sum = 0.0;
  for (std::size_t i = first; i <= last; ++i) sum += layers[i].median_s;
  return sum;
}

const GroupTiming* HostProfile::group_or_null(std::size_t first, std::size_t last) const {
  for (const auto& g : groups)
    if (g.first == first && g.last == last) return &g;
  return nullptr;
}

Json host_profile_to_json(const HostProfile& p) {
  Json layers = Json::array();
  for (const auto& s : p.layers) layers.push_back(stats_to_json(s));
  Json groups = Json::array();
  for (const auto& g : p.groups) {
    Json j = stats_to_json(g.stats);
    j["first"] = g.first;
    j["last"] = g.last;
    groups.push_back(j);
  }
  Json j = {{"model", p.model},       {"host_cpu", p.host_cpu}, {"basis", p.basis},
            {"build_id", p.build_id}, {"layers", layers},       {"groups", groups}};
  if (p.batch != 1) j["batch"] = p.batch;
  return j;
}

HostProfile host_profile_from_json(const Json& json) {
  HostProfile p;
  p.model = json_string(json, "model", "");
  p.host_cpu = json_string(json, "host_cpu", "");
  p.basis = json_enum(json, "basis", "", {"profile", "estimate", "normalized"});
  p.build_id = json_string_or(json, "build_id", "", "");
  p.batch = json_int_or(json, "batch", "", 1, 1);
  const auto& layers = json_at(json, "layers", "");
  if (!layers.is_array()) throw InputError("", "layers", "expected an array");
  for (std::size_t i = 0; i < layers.size(); ++i)
    p.layers.push_back(stats_from_json(layers[i], index_path("layers", i)));
  if (const Json* groups = json_find(json, "groups", "")) {
    if (!groups->is_array()) throw InputError("", "groups", "expected an array");
    for (std::size_t i = 0; i < groups->size(); ++i) {
      const auto path = index_path("groups", i);
      GroupTiming g;
      g.first = static_cast<std::size_t>(json_int((*groups)[i], "first", path, 0));
      g.last = static_cast<std::size_t>(json_int((*groups)[i], "last", path, 0));
      if (g.first > g.last || g.last >= p.layers.size())
        throw InputError("", path,
                         fmt::format("range [{}, {}] outside {} layers", g.first, g.last, p.layers.size()));
      g.stats = stats_from_json((*groups)[i], path);
      p.groups.push_back(g);
    }
  }
  return p;
}

std::string host_cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    auto value = line.substr(colon + 1);
    const auto start = value.find_first_not_of(" \t");
    return start == std::string::npos ? "unknown" : value.substr(start);
  }
  return "unknown";
}

}  // namespace coinfer
