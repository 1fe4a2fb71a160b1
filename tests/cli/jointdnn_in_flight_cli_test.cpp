// End to end: jointdnn-table with `in_flight` on a 4G uplink that falls from 12 to 0.5 Mbps at 10 s.
#include <nlohmann/json.hpp>

#include "tests/cli/jointdnn_table_cli_support.hpp"

using Json = nlohmann::json;
using namespace coinfer::testing;

namespace {

// 2 fps x 30 frames. The upload of frame 20 (released at 10 s) is the first at 0.5 Mbps: about 2.4 s
// for VGG-16's 150.5 kB 8-bit input, so frames 21.. are released while it is in flight and every
// completed upload was fast.
const std::filesystem::path& falling_out() {
  // One run read by every test case here (each TEST_CASE's own scratch folder is removed when it
  // ends): it lives in a folder of its own, kept for the process.
  static const coinfer::test::ScratchDir shared;
  static const std::filesystem::path out =
      run_table_scenario(table_scenario("in_flight_falling", "[[0, 12000000], [10, 500000]]", 30,
                                        R"(  - {label: table, set: {scheduler: {name: jointdnn-table}}}
  - {label: off, set: {scheduler: {name: jointdnn-table, in_flight: false}}}
  - {label: in-flight, set: {scheduler: {name: jointdnn-table, in_flight: true}}}
)"),
                         shared.fs_path());
  return out;
}

}  // namespace

TEST_CASE("jointdnn-table without in_flight picks the stale fast cell while a slow upload is in flight") {
  const auto& out = falling_out();
  const auto r = Json::parse(read_text(out / "table" / "results.json"));
  const auto v = frame_variants(out / "table" / "frames.csv");
  REQUIRE(v.size() == 30);
  CHECK(cell_uplink_bps(r, v[19]) >= 8e6);
  for (std::size_t k = 21; k <= 23; ++k) CHECK(cell_uplink_bps(r, v[k]) >= 8e6);
}

TEST_CASE("jointdnn-table with in_flight picks the low-rate cell while a slow upload is in flight") {
  const auto& out = falling_out();
  const auto r = Json::parse(read_text(out / "in-flight" / "results.json"));
  const auto v = frame_variants(out / "in-flight" / "frames.csv");
  REQUIRE(v.size() == 30);
  CHECK(cell_uplink_bps(r, v[19]) >= 8e6);  // before the fall: as without
  for (std::size_t k = 21; k <= 23; ++k) CHECK(cell_uplink_bps(r, v[k]) == 0.5e6);
  CHECK(r["scheduler_metrics"]["table_in_flight_decisions"].get<double>() > 0);
}

TEST_CASE("jointdnn-table with in_flight false gives the same bytes as without the key") {
  const auto& out = falling_out();
  CHECK(same_results(out / "off", out / "table"));
  const auto r = Json::parse(read_text(out / "table" / "results.json"));
  CHECK_FALSE(r["scheduler_metrics"].contains("table_in_flight_decisions"));
}
