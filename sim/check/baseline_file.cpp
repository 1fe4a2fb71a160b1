#include "sim/check/baseline_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
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

// `{`, one entry per line indented by `indent` + 4, `}` indented by `indent` + 2.
template <class T, class Fn>
std::string object_lines(const std::vector<std::pair<std::string, T>>& entries, Fn value_text,
                         const std::string& indent) {
  std::string out = "{\n";
  for (std::size_t i = 0; i < entries.size(); ++i)
    out += fmt::format("{}    {}: {}{}\n", indent, Json(entries[i].first).dump(),
                       value_text(entries[i].second), i + 1 < entries.size() ? "," : "");
  return out + indent + "  }";
}

RatioSamples parse_ratios(const Json& ratios, const std::string& path) {
  if (!ratios.is_object()) throw InputError("", path, "expected a mapping of ratio names");
  RatioSamples out;
  for (const auto& [name, entry] : ratios.items()) {
    const auto rpath = path + "." + name;
    json_reject_unknown_keys(entry, rpath, {"median", "samples"});
    auto samples = json_number_array(entry, "samples", rpath, -1, 0.0, 1e300);
    if (samples.empty()) throw InputError("", rpath + ".samples", "expected at least one sample");
    out.emplace_back(name, std::move(samples));
  }
  return out;
}

// `machines` (or an older file's `recorded_on` + `ratios`).
std::vector<MachineSamples> parse_machines(const Json& doc) {
  std::vector<MachineSamples> out;
  if (const Json* ratios = json_find(doc, "ratios", "")) {
    if (doc.contains("machines")) throw InputError("", "ratios", "expected 'machines' or 'ratios', not both");
    out.push_back({json_string_or(doc, "recorded_on", "", ""), parse_ratios(*ratios, "ratios")});
    return out;
  }
  const Json& machines = json_at(doc, "machines", "");
  if (!machines.is_object()) throw InputError("", "machines", "expected a mapping of machines to ratios");
  for (const auto& [key, ratios] : machines.items())
    out.push_back({key, parse_ratios(ratios, "machines." + key)});
  return out;
}

}  // namespace

const Json* BaselineFile::metric(const std::string& name) const {
  for (const auto& [n, v] : metrics)
    if (n == name) return &v;
  return nullptr;
}

const std::vector<double>* MachineSamples::ratio(const std::string& name) const {
  for (const auto& [n, v] : ratios)
    if (n == name) return &v;
  return nullptr;
}

const MachineSamples* BaselineFile::machine(const std::string& key) const {
  for (const auto& m : machines)
    if (m.machine == key) return &m;
  return nullptr;
}

void BaselineFile::put_machine(MachineSamples samples) {
  for (auto& m : machines)
    if (m.machine == samples.machine) {
      m = std::move(samples);
      return;
    }
  machines.push_back(std::move(samples));
}

std::string baseline_text(const BaselineFile& b) {
  std::string out = fmt::format("{{\n  \"format\": {},\n  \"check\": {},\n", Json(kBaselineFormat).dump(),
                                Json(b.check).dump());
  if (b.timing()) {
    out += fmt::format("  \"setup\": {},\n  \"machines\": {{", b.setup.dump());
    for (std::size_t i = 0; i < b.machines.size(); ++i)
      out += fmt::format("{}\n    {}: {}", i ? "," : "", Json(b.machines[i].machine).dump(),
                         object_lines(b.machines[i].ratios, ratio_line, "  "));
    out += b.machines.empty() ? "}" : "\n  }";
  } else {
    out += "  \"metrics\": " + object_lines(
                                   b.metrics, [](const Json& v) { return v.dump(); }, "");
  }
  return out + "\n}\n";
}

BaselineFile read_baseline(const std::string& path, const std::string& check) {
  if (std::error_code ec; !std::filesystem::is_regular_file(path, ec))
    throw InputError(path, "", "baseline not found; record it with coinfer check --update");
  const Json doc = read_json_file(path);
  try {
    json_reject_unknown_keys(doc, "",
                             {"format", "check", "metrics", "setup", "machines", "recorded_on", "ratios"});
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
    if (doc.contains("setup")) {
      b.setup = json_at(doc, "setup", "");
      if (!b.setup.is_object()) throw InputError("", "setup", "expected the mapping of the commands timed");
      b.machines = parse_machines(doc);
    }
    if (doc.contains("metrics") == doc.contains("setup"))
      throw InputError("", "",
                       "expected 'metrics' (a result check) or 'setup' and 'machines' (a timing check)");
    b.path = path;
    return b;
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(path) : e;
  }
}

std::string isa_of(const std::string& cpu_flags) {
  std::istringstream words(cpu_flags);
  std::set<std::string> flags;
  for (std::string w; words >> w;) flags.insert(w);
  for (const char* isa : {"avx512f", "avx2", "avx", "sse4_2", "sve", "asimd"})
    if (flags.count(isa)) return isa;
  return "unknown ISA";
}

std::string this_machine() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU", flags;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto value = line.substr(std::min(line.size(), colon + 2));
    if (line.rfind("model name", 0) == 0 && model == "unknown CPU") model = value;
    if ((line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0) && flags.empty()) flags = value;
  }
  return fmt::format("{} ({}, {} CPUs)", model, isa_of(flags), std::thread::hardware_concurrency());
}

}  // namespace coinfer::check
