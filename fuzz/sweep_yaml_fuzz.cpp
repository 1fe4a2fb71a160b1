/// Sweep YAML (sim/scenario/sweep): what `coinfer sweep --dry-run` checks, on a few points. The
/// input is read as scenarios/fuzz-sweep.yaml, so `base: quickstart.yaml` names the shipped
/// scenario. Every sweep is parsed and sized; its first, middle and last runs are built (point
/// hash included) and checked as `coinfer run` would (keys, partitioner, scheduler). Expanding
/// every run (up to 10^7 by design) is left to the sweep tests.
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "fuzz/registries.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/sweep.hpp"
#include "sim/scenario/yaml_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  static const std::string file = fuzz::source_dir() + "/scenarios/fuzz-sweep.yaml";
  const auto& partitioners = fuzz::partitioners();
  const auto& schedulers = fuzz::schedulers();
  fuzz::accept_or_reject([&] {
    const SweepSpec spec = parse_sweep(yaml_to_json(fuzz::as_text(data, size), file), file);
    const std::size_t runs = sweep_size(spec);
    fuzz::check(runs >= 1, "a parsed sweep has at least one run");
    for (const std::size_t index : {std::size_t{0}, runs / 2, runs - 1}) {
      fuzz::accept_or_reject([&] {
        const SweepRun run = sweep_run(spec, index);
        fuzz::check(run.index == index, "sweep_run(spec, i).index == i");
        fuzz::check(run.point_hash.size() == 16, "point_hash has 16 hex digits");
        (void)describe_run(run);
        const ScenarioSpec scenario = parse_scenario(run.scenario, file);
        check_scenario_components(scenario, partitioners, schedulers);
      });
    }
  });
  return 0;
}
