/// Plan JSON (sim/plan/plan_json): an accepted plan must write and re-read to the same JSON, and
/// validating, compiling and costing it against the shipped platforms (names, routes, the DAG and
/// its cycles, critical path) either succeeds or throws `coinfer::Error`.
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "sim/plan/critical_path.hpp"
#include "sim/plan/plan_json.hpp"
#include "sim/platform/platform_yaml.hpp"

namespace {

const std::vector<coinfer::Platform>& shipped_platforms() {
  static const std::vector<coinfer::Platform> platforms = [] {
    const auto dir = coinfer::fuzz::source_dir() + "/platforms/";
    return std::vector<coinfer::Platform>{coinfer::load_platform_file(dir + "edge_wifi_lte.yaml"),
                                          coinfer::load_platform_file(dir + "wlan4.yaml")};
  }();
  return platforms;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  const auto& platforms = shipped_platforms();
  fuzz::accept_or_reject([&] {
    const Plan plan = plan_from_json(parse_json_text(fuzz::as_text(data, size), "fuzz-plan.json"), "fuzz-plan.json");
    const Json written = plan_to_json(plan);
    Plan again;
    try {
      again = plan_from_json(written, "fuzz-plan.json");
    } catch (const Error& e) {
      std::fprintf(stderr, "fuzz: written plan does not re-read: %s\n", e.what());
      fuzz::check(false, "plan_from_json(plan_to_json(p)) throws");
    }
    fuzz::check(plan_to_json(again) == written, "plan round trip differs");
    for (const auto& platform : platforms) {
      fuzz::accept_or_reject([&] { (void)analytic_latency_s(plan, platform); });
    }
  });
  return 0;
}
