// End to end: jointdnn-table with bandwidth probes (probe_period_s) on a 2-phase 4G uplink.
#include <nlohmann/json.hpp>

#include "tests/cli/jointdnn_table_cli_support.hpp"

using Json = nlohmann::json;
using namespace coinfer::testing;

namespace {

// The uplink is 0.5 Mbps for 15 s, then 12 Mbps; 2 fps x 80 frames.
const std::filesystem::path& two_phase_out() {
  // One run read by every test case here (each TEST_CASE's own scratch folder is removed when it
  // ends): it lives in a folder of its own, kept for the process.
  static const coinfer::test::ScratchDir shared;
  static const std::filesystem::path out =
      run_table_scenario(table_scenario("probe_two_phase", "[[0, 500000], [15, 12000000]]", 80,
                                        R"(  - {label: table, set: {scheduler: {name: jointdnn-table}}}
  - {label: off, set: {scheduler: {name: jointdnn-table, probe_period_s: 0}}}
  - {label: probe, set: {scheduler: {name: jointdnn-table, probe_period_s: 2}}}
)"),
                         shared.fs_path());
  return out;
}

}  // namespace

TEST_CASE("jointdnn-table without probes stays on its low-rate cell after the uplink recovers") {
  const auto& out = two_phase_out();
  const auto r = Json::parse(read_text(out / "table" / "results.json"));
  const auto v = frame_variants(out / "table" / "frames.csv");
  REQUIRE(v.size() == 80);
  for (std::size_t k = 40; k < v.size(); ++k) CHECK(cell_uplink_bps(r, v[k]) == 0.5e6);  // t >= 20 s
  CHECK_FALSE(r.contains("probes"));
}

TEST_CASE("jointdnn-table with probes returns to an offloading cell after the uplink recovers") {
  const auto& out = two_phase_out();
  const auto r = Json::parse(read_text(out / "probe" / "results.json"));
  const auto fixed = Json::parse(read_text(out / "table" / "results.json"));
  const auto v = frame_variants(out / "probe" / "frames.csv");
  REQUIRE(v.size() == 80);
  for (std::size_t k = 60; k < v.size(); ++k) CHECK(cell_uplink_bps(r, v[k]) >= 8e6);  // t >= 30 s
  const double probe_bytes = r["probe_bytes"]["4g/tx2/up"].get<double>();
  CHECK(r["probes"]["4g/tx2/up"].get<double>() > 0);
  CHECK(r["probe_radio_energy_j"]["tx2"].get<double>() > 0);
  CHECK(r["scheduler_metrics"]["table_probes"].get<double>() > 0);
  // The frames themselves upload again: far more than the run without probes sent.
  CHECK(r["bytes"]["4g/tx2/up"].get<double>() - probe_bytes > 10 * fixed["bytes"]["4g/tx2/up"].get<double>());
}

TEST_CASE("jointdnn-table with probe_period_s 0 gives the same bytes as without the key") {
  const auto& out = two_phase_out();
  CHECK(same_results(out / "off", out / "table"));
}
