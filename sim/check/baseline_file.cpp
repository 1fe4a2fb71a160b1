#include "sim/check/baseline_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::check {
namespace {

std::string sample_text(double v) { return fmt::format("{:.6g}", v); }

std::string ratio_line(const std::vector<double>& samples) {
  std::vector<std::string> cells;
  for (const double s : samples) cells.push_back(sample_text(s));
  std::vector<double> sorted(samples);
  std::sort(sorted.begin(), sorted.end());
  const auto n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  return fmt::format("{{\"median\": {}, \"samples\": [{}]}}", sample_text(median), fmt::join(cells, ", "));
}

template <class T, class Fn>
std::string object_lines(const std::vector<std::pair<std::string, T>>& entries, Fn value_text) {
  std::string out = "{\n";
  for (std::size_t i = 0; i < entries.size(); ++i)
    out += fmt::format("    {}: {}{}\n", Json(entries[i].first).dump(), value_text(entries[i].second),
                       i + 1 < entries.size() ? "," : "");
  return out + "  }";
}

}  // namespace

const Json* BaselineFile::metric(const std::string& name) const {
  for (const auto& [n, v] : metrics)
    if (n == name) return &v;
  return nullptr;
}

const std::vector<double>* BaselineFile::ratio(const std::string& name) const {
  for (const auto& [n, v] : ratios)
    if (n == name) return &v;
  return nullptr;
}

std::string baseline_text(const BaselineFile& b) {
  std::string out = fmt::format("{{\n  \"format\": {},\n  \"check\": {},\n", Json(kBaselineFormat).dump(),
                                Json(b.check).dump());
  if (!b.setup.is_null()) {
    out += fmt::format("  \"setup\": {},\n", b.setup.dump());
    out += fmt::format("  \"recorded_on\": {},\n", Json(b.recorded_on).dump());
    out += "  \"ratios\": " + object_lines(b.ratios, ratio_line);
  } else {
    out += "  \"metrics\": " + object_lines(b.metrics, [](const Json& v) { return v.dump(); });
  }
  return out + "\n}\n";
}

BaselineFile read_baseline(const std::string& path, const std::string& check) {
  if (std::error_code ec; !std::filesystem::is_regular_file(path, ec))
    throw InputError(path, "", "baseline not found; record it with coinfer check --update");
  const Json doc = read_json_file(path);
  try {
    json_reject_unknown_keys(doc, "", {"format", "check", "metrics", "setup", "recorded_on", "ratios"});
    if (json_string(doc, "format", "") != kBaselineFormat)
      throw InputError("", "format", fmt::format("expected '{}'", kBaselineFormat));
    BaselineFile b;
    b.check = json_string(doc, "check", "");
    if (b.check != check)
      throw InputError(
          "", "check",
          fmt::format("the baseline of check '{}', not of '{}' (two checks name one file?)", b.check, check));
    if (const Json* metrics = json_find(doc, "metrics", "")) {
      if (!metrics->is_object())
        throw InputError("", "metrics", "expected a mapping of metric names to values");
      for (const auto& [name, value] : metrics->items()) {
        if (value.is_structured())
          throw InputError("", "metrics." + name, "expected a number, string, boolean or null");
        if (value.is_number()) (void)json_as_number(value, "metrics." + name);
        b.metrics.emplace_back(name, value);
      }
    }
    if (const Json* ratios = json_find(doc, "ratios", "")) {
      if (!ratios->is_object()) throw InputError("", "ratios", "expected a mapping of ratio names");
      for (const auto& [name, entry] : ratios->items()) {
        const auto rpath = "ratios." + name;
        json_reject_unknown_keys(entry, rpath, {"median", "samples"});
        auto samples = json_number_array(entry, "samples", rpath, -1, 0.0, 1e300);
        if (samples.empty()) throw InputError("", rpath + ".samples", "expected at least one sample");
        b.ratios.emplace_back(name, std::move(samples));
      }
      b.setup = json_at(doc, "setup", "");
      b.recorded_on = json_string_or(doc, "recorded_on", "", "");
    }
    if (!doc.contains("metrics") && !doc.contains("ratios"))
      throw InputError("", "", "expected 'metrics' (a result check) or 'ratios' (a timing check)");
    return b;
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(path) : e;
  }
}

std::string this_machine() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(line.find_first_not_of(" \t", colon + 1));
      break;
    }
  return fmt::format("{} ({} CPUs)", model, std::thread::hardware_concurrency());
}

}  // namespace coinfer::check
