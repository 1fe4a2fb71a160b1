// The jointdnn-table scheduler: the cell it picks for given measurements (schedulers/jointdnn_table).
#include <catch2/catch.hpp>

#include "partitioners/jointdnn/table_facts.hpp"
#include "schedulers/jointdnn_table/table_scheduler.hpp"
#include "sim/core/error.hpp"
#include "sim/plan/plan.hpp"
#include "sim/platform/platform_yaml.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn_table;
using Catch::Matchers::Contains;

namespace {

// Brute force: the floor is the largest grid rate <= r (else index 0); nearest minimises |g - r|,
// the lower one on a tie.
std::size_t brute_pick(const std::vector<double>& grid, double r, Pick pick) {
  std::size_t best = 0;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (pick == Pick::floor) {
      if (grid[i] <= r) best = i;
    } else if (std::abs(grid[i] - r) < std::abs(grid[best] - r)) {
      best = i;
    }
  }
  return best;
}

// The variants of a table with uplink grid {1, 4} Mbps and downlink grid {2, 10, 20} Mbps over
// jointdnn_tx2_k40's 4g (network 1; tx2 = device 0, k40 = device 1), nominal 5.85 / 13.76 Mbps.
std::vector<Plan> table_plans() {
  const std::vector<double> up = {1e6, 4e6}, down = {2e6, 10e6, 20e6};
  const auto plan = [](double u, double d, std::optional<jointdnn::TableFacts::Cell> cell) {
    jointdnn::TableFacts f;
    f.uplink_bps = u;
    f.downlink_bps = d;
    f.cell = cell;
    f.mobile = 0;
    f.cloud = 1;
    f.network = 1;
    Plan p;
    p.name = "cell";
    p.facts = std::make_shared<const jointdnn::TableFacts>(f);
    return p;
  };
  std::vector<Plan> plans{plan(5.85e6, 13.76e6, std::nullopt)};
  for (std::size_t u = 0; u < up.size(); ++u)
    for (std::size_t d = 0; d < down.size(); ++d) plans.push_back(plan(up[u], down[d], {{u, d}}));
  return plans;
}

Platform tx2_k40() {
  return load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/jointdnn_tx2_k40.yaml");
}

struct View {
  std::vector<std::string> names = {"3g/tx2/up", "3g/tx2/down", "4g/tx2/up", "4g/tx2/down"};
  SchedulerView view;
  View() {
    view.link_names = &names;
    view.variant_count = 7;
    view.link_rates_bps.assign(names.size(), 0.0);
    view.measured_links.assign(names.size(), MeasuredLink{});
  }
  void measure(std::size_t link, double ewma_bps) {
    view.measured_links[link].transfers += 1;
    view.measured_links[link].ewma_rate_bps = ewma_bps;
  }
};

std::size_t pick_with(TableScheduler& s, const SchedulerView& v) { return s.on_frame(v).variant.value(); }

}  // namespace

TEST_CASE("pick_index matches brute force for floor and nearest") {
  const std::vector<double> grid = {0.5, 1, 2, 3, 4, 6, 8, 12, 16};
  for (double r = 0.0; r <= 20.0; r += 0.125)
    for (auto pick : {Pick::floor, Pick::nearest})
      CHECK(pick_index(grid, r, pick) == brute_pick(grid, r, pick));
  CHECK(pick_cell({1e6, 5e6}, {2e6, 1e7}, 4e6, 3e7, Pick::floor) == 2);  // the header's example
}

TEST_CASE("jointdnn-table keeps variant 0 until a transfer has been measured") {
  TableScheduler s({});
  s.plan_variants(table_plans(), tx2_k40());
  View v;
  v.view.link_rates_bps = {1, 1, 1e9, 1e9};  // the true rate is ignored without oracle
  CHECK(pick_with(s, v.view) == 0);
  v.measure(0, 50e6);  // a 3g link: not the plan's network
  CHECK(pick_with(s, v.view) == 0);
}

TEST_CASE("jointdnn-table picks the floor cell of the measured rates, nominal for an unmeasured direction") {
  TableScheduler s({});
  s.plan_variants(table_plans(), tx2_k40());
  View v;
  v.measure(2, 4.5e6);  // uplink measured 4.5 Mbps -> up cell 1 (4 Mbps); downlink nominal 13.76 -> 10
  CHECK(pick_with(s, v.view) == 1 + 1 * 3 + 1);
  v.measure(3, 25e6);  // downlink 25 Mbps -> 20
  CHECK(pick_with(s, v.view) == 1 + 1 * 3 + 2);
  v.measure(2, 0.3e6);  // below the grid: its lowest cell
  CHECK(pick_with(s, v.view) == 1 + 0 * 3 + 2);
  CHECK(s.summary().at("table_decisions") == 3);
  CHECK(s.summary().at("table_changes") == 3);
}

TEST_CASE("jointdnn-table with pick nearest takes the closest cell") {
  TableParams p;
  p.pick = Pick::nearest;
  TableScheduler s(p);
  s.plan_variants(table_plans(), tx2_k40());
  View v;
  v.measure(2, 3.9e6);  // up: 4 is nearer than 1
  v.measure(3, 7e6);    // down: 10 is nearer than 2
  CHECK(pick_with(s, v.view) == 1 + 1 * 3 + 1);
}

TEST_CASE("jointdnn-table with oracle reads the true link rates") {
  TableParams p;
  p.oracle = true;
  TableScheduler s(p);
  s.plan_variants(table_plans(), tx2_k40());
  View v;
  v.measure(2, 50e6);  // measurements are ignored by the oracle
  v.view.link_rates_bps = {0, 0, 2e6, 2e6};
  CHECK(pick_with(s, v.view) == 1 + 0 * 3 + 0);
}

TEST_CASE("jointdnn-table with period_s decides on the period, not per frame") {
  TableParams p;
  p.period_s = 1.0;
  TableScheduler s(p);
  s.plan_variants(table_plans(), tx2_k40());
  View v;
  v.measure(2, 4.5e6);
  CHECK_FALSE(s.on_frame(v.view).variant.has_value());
  CHECK(s.on_period(v.view) == std::optional<std::size_t>(5));
}

TEST_CASE("jointdnn-table rejects variants that are not a jointdnn table") {
  TableScheduler s({});
  CHECK_THROWS_WITH(s.plan_variants({Plan{}}, tx2_k40()), Contains("scheduler.name") && Contains("table"));
  auto plans = table_plans();
  plans.pop_back();  // 2 x 3 grid with a cell missing
  CHECK_THROWS_WITH(s.plan_variants(plans, tx2_k40()), Contains("do not form"));
  plans = table_plans();
  plans[2].facts =
      std::make_shared<const PlanFileFacts>(std::map<std::string, double>{{"downlink_bps", 2e6}});
  CHECK_THROWS_WITH(s.plan_variants(plans, tx2_k40()),
                    Contains("variant 2 has no jointdnn-table facts (it carries plan file facts)"));
}

TEST_CASE("jointdnn-table with max_age_s returns to variant 0 when its measurements are stale") {
  TableParams p;
  p.max_age_s = 2.0;
  TableScheduler s(p);
  s.plan_variants(table_plans(), tx2_k40());
  View v;
  v.measure(2, 0.5e6);
  v.view.now_s = 1.0;
  CHECK(pick_with(s, v.view) == 1 + 0 * 3 + 1);  // up 0.5 -> cell 0; down nominal 13.76 -> 10
  v.view.now_s = 3.0;
  CHECK(pick_with(s, v.view) == 1 + 0 * 3 + 1);  // 2 s old: still fresh
  v.view.now_s = 3.5;
  CHECK(pick_with(s, v.view) == 0);  // stale, nothing else measured: the nominal plan probes again
  v.measure(2, 5e6);
  CHECK(pick_with(s, v.view) == 1 + 1 * 3 + 1);  // a new transfer counts from now
}

TEST_CASE("jointdnn-table with probe_period_s probes each direction without a recent measurement") {
  TableParams p;
  p.probe_period_s = 2.0;
  p.probe_bytes = 1000.0;
  TableScheduler s(p);
  s.plan_variants(table_plans(), tx2_k40());
  View v;
  auto probes = s.take_probes(v.view);  // t = 0, nothing measured: both directions
  REQUIRE(probes.size() == 2);
  CHECK((probes[0].network == "4g" && probes[0].from == "tx2" && probes[0].to == "k40"));
  CHECK((probes[1].network == "4g" && probes[1].from == "k40" && probes[1].to == "tx2"));
  CHECK(probes[0].bytes == 1000.0);
  v.view.now_s = 1.9;
  CHECK(s.take_probes(v.view).empty());  // probed 1.9 s ago
  v.measure(2, 5e6);
  v.view.measured_links[2].last_end_s = 1.5;  // the uplink measured at 1.5 s
  v.view.now_s = 2.0;
  probes = s.take_probes(v.view);  // the uplink is fresh, the downlink's probe is 2 s old
  REQUIRE(probes.size() == 1);
  CHECK(probes[0].from == "k40");
  v.view.now_s = 3.5;
  probes = s.take_probes(v.view);  // the uplink measurement is 2 s old
  REQUIRE(probes.size() == 1);
  CHECK(probes[0].from == "tx2");
  CHECK(s.summary().at("table_probes") == 4);
}

TEST_CASE("jointdnn-table sends no probe when off, for the oracle, or for a direction of one grid rate") {
  View v;
  TableScheduler off({});
  off.plan_variants(table_plans(), tx2_k40());
  CHECK(off.take_probes(v.view).empty());
  CHECK(off.summary().count("table_probes") == 0);
  TableParams p;
  p.probe_period_s = 1.0;
  p.oracle = true;
  TableScheduler oracle(p);
  oracle.plan_variants(table_plans(), tx2_k40());
  CHECK(oracle.take_probes(v.view).empty());
  // Uplink grid {1, 4} Mbps, one downlink rate: only the uplink matters to the table.
  const auto all = table_plans();
  const std::vector<Plan> plans = {all[0], all[1], all[4]};  // nominal, cells (0, 0) and (1, 0)
  p.oracle = false;
  TableScheduler one(p);
  one.plan_variants(plans, tx2_k40());
  const auto probes = one.take_probes(v.view);
  REQUIRE(probes.size() == 1);
  CHECK(probes[0].from == "tx2");
}

namespace {
// The uplink (link 2) measured at 4.5 Mbps (cell 1, 4 Mbps), and an upload of 150 kB in flight that
// has sent 25 kB in `sending_s` s after 10 ms latency: 0.2 / sending_s Mbps.
View slow_upload_in_flight(double sending_s) {
  View v;
  v.measure(2, 4.5e6);
  MeasuredLink& m = v.view.measured_links[2];
  m.in_flight = 1;
  m.oldest_bytes = 150e3;
  m.oldest_delivered_bytes = 25e3;
  m.oldest_latency_s = 0.01;
  m.oldest_elapsed_s = 0.01 + sending_s;
  return v;
}
}  // namespace

TEST_CASE("jointdnn-table with in_flight takes the lower in-flight rate once it has sent long enough") {
  TableParams p;
  p.in_flight = true;
  TableScheduler s(p);
  s.plan_variants(table_plans(), tx2_k40());
  CHECK(s.sees_in_flight());
  // 0.4 s sending (>= in_flight_min_s 0.1): 0.5 Mbps < 4.5 -> up cell 0; downlink nominal -> 10.
  CHECK(pick_with(s, slow_upload_in_flight(0.4).view) == 1 + 0 * 3 + 1);
  // 0.05 s sending: too young, the EWMA decides.
  CHECK(pick_with(s, slow_upload_in_flight(0.05).view) == 1 + 1 * 3 + 1);
  CHECK(s.summary().at("table_in_flight_decisions") == 1);
}

TEST_CASE("jointdnn-table with in_flight keeps the EWMA when the transfer in flight is faster") {
  TableParams p;
  p.in_flight = true;
  // 25 kB in 0.02 s = 10 Mbps > 4.5 measured; with in_flight_min_s 0.01 it counts but is not lower.
  p.in_flight_min_s = 0.01;
  TableScheduler fast(p);
  fast.plan_variants(table_plans(), tx2_k40());
  CHECK(pick_with(fast, slow_upload_in_flight(0.02).view) == 1 + 1 * 3 + 1);
  CHECK(fast.summary().at("table_in_flight_decisions") == 0);
}

TEST_CASE("jointdnn-table without in_flight, or as oracle, ignores transfers in flight") {
  TableScheduler off({});
  off.plan_variants(table_plans(), tx2_k40());
  CHECK_FALSE(off.sees_in_flight());
  CHECK(pick_with(off, slow_upload_in_flight(0.4).view) == 1 + 1 * 3 + 1);
  CHECK(off.summary().count("table_in_flight_decisions") == 0);
  TableParams p;
  p.in_flight = true;
  p.oracle = true;
  TableScheduler oracle(p);
  oracle.plan_variants(table_plans(), tx2_k40());
  CHECK_FALSE(oracle.sees_in_flight());
  View v = slow_upload_in_flight(0.4);
  v.view.link_rates_bps = {0, 0, 5e6, 15e6};
  CHECK(pick_with(oracle, v.view) == 1 + 1 * 3 + 1);
}
