/// Scenario YAML: what `coinfer run s.yaml --set k=v` does before it loads anything. Leading lines
/// `--set KEY=VALUE` of the input become overrides; the rest is the scenario, as if it were
/// scenarios/fuzz.yaml (so `platform: ../platforms/edge_wifi_lte.yaml` means the shipped file).
/// Then: shorthands, overrides, parse_scenario, every compare variant, the partitioner and
/// scheduler with their parameters (registry schemas), and the resolved scenario results.json
/// would hold, written out as JSON.
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "fuzz/registries.hpp"
#include "sim/scenario/key_path.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/scenario_doc.hpp"
#include "sim/scenario/yaml_json.hpp"

namespace {

/// Splits off the leading `--set ...` lines.
std::vector<std::string> take_overrides(std::string& text) {
  std::vector<std::string> overrides;
  static const std::string prefix = "--set ";
  while (text.starts_with(prefix)) {
    const auto end = text.find('\n');
    overrides.push_back(text.substr(prefix.size(), end == std::string::npos ? std::string::npos : end - prefix.size()));
    text = end == std::string::npos ? std::string() : text.substr(end + 1);
  }
  return overrides;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  static const std::string file = fuzz::source_dir() + "/scenarios/fuzz.yaml";
  const auto& partitioners = fuzz::partitioners();
  const auto& schedulers = fuzz::schedulers();
  std::string text = fuzz::as_text(data, size);
  const auto overrides = take_overrides(text);
  fuzz::accept_or_reject([&] {
    Json doc = yaml_to_json(text, file);
    if (!doc.is_object()) return;  // load_scenario refuses it first
    expand_scenario_shorthands(doc);
    for (const auto& o : overrides) apply_override(doc, o);
    ScenarioSpec spec = parse_scenario(doc, file);
    spec.overrides = overrides;
    for (const auto& entry : spec.compare) {
      fuzz::accept_or_reject([&] {
        const ScenarioSpec variant = compare_variant(spec, entry);
        check_scenario_components(variant, partitioners, schedulers);
      });
    }
    check_scenario_components(spec, partitioners, schedulers);
    const auto source = spec.source.empty() ? std::string("phone") : spec.source;
    (void)resolved_scenario(spec, source, partitioners, schedulers).dump();
  });
  return 0;
}
