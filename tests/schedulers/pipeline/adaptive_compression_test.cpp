// The adaptive-compression scheduler (Algorithm 2): eq. 3 thresholds from the variants' facts,
// switches at them on measured (or oracle) bandwidth, per-split choices, and the reload stall in a
// replay against its closed form.
#include "schedulers/pipeline/adaptive_compression.hpp"
#include "partitioners/pipeline/pipeline_facts.hpp"

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/plan/plan.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

namespace coinfer::test {
namespace {

Platform chain3() {
  return make_platform({test_device("d1"), test_device("d2"), test_device("d3")},
                       {shared_network("h1", NetworkKind::Wired, {"d1", "d2"}, 8e6, 0.0),
                        shared_network("h2", NetworkKind::Wired, {"d2", "d3"}, 8e6, 0.0)});
}

// d1 -> link1 -> d2 -> link2 -> d3 with ratios g1, g2 at the two splits (20 kB uncompressed each);
// a compressed split adds an encoder label on its sender and a decoder label on its receiver.
Plan chain_variant(double g1, double g2, double accuracy) {
  const auto label = [](const char* base, double g_enc, double g_dec) {
    return fmt::format("{}{}{}", base, g_enc > 1 ? fmt::format("+enc{}", g_enc) : "",
                       g_dec > 1 ? fmt::format("+dec{}", g_dec) : "");
  };

  Plan p{fmt::format("g{}x{}", g1, g2),
         "",
         {compute_task("s1", "d1", 0.02, {}, label("s1", g1, 1)),
          transfer_task("link1", "d1", "d2", 20e3 / g1, {"s1"}),
          compute_task("s2", "d2", 0.02, {"link1"}, label("s2", g2, g1)),
          transfer_task("link2", "d2", "d3", 20e3 / g2, {"s2"}),
          compute_task("s3", "d3", 0.02, {"link2"}, label("s3", 1, g2))}};
  PipelineFacts f;
  f.splits = {{1, 20e3 / g1, g1, 1}, {2, 20e3 / g2, g2, 3}};  // tasks[1] = link1, tasks[3] = link2
  f.tp_fps = 50.0;
  f.nu = accuracy;
  p.facts = std::make_shared<const PipelineFacts>(f);
  return p;
}

// The view a period sees: every link of split choice i's route measured at measured[i] (0: nothing
// measured yet), its true rate oracle[i] (names: every link of every choice, in order).
SchedulerView view_of(const std::vector<std::string>& names, std::vector<double> measured,
                      std::vector<double> oracle, std::size_t current) {
  SchedulerView v;
  v.link_names = &names;
  v.current_variant = current;
  const std::size_t per = names.size() / measured.size();
  for (std::size_t i = 0; i < names.size(); ++i) {
    MeasuredLink l;
    l.transfers = measured[i / per] > 0 ? 3 : 0;
    l.ewma_rate_bps = measured[i / per];
    v.measured_links.push_back(l);
    v.link_rates_bps.push_back(oracle.empty() ? 0.0 : oracle[i / per]);
  }
  return v;
}

std::vector<std::string> link_names(const AdaptiveCompressionScheduler& s) {
  std::vector<std::string> names;
  for (const auto& c : s.split_choices()) names.insert(names.end(), c.links.begin(), c.links.end());
  return names;
}

}  // namespace
}  // namespace coinfer::test

using coinfer::test::chain_variant;

TEST_CASE("adaptive-compression: a ratio is chosen by the region the bandwidth falls in", "[pipeline]") {
  using coinfer::choose_ratio_index;
  CHECK(choose_ratio_index({2.0, 5.0}, 1.0) == 0);
  CHECK(choose_ratio_index({2.0, 5.0}, 2.0) == 0);  // at theta the more compressed one stays (not better)
  CHECK(choose_ratio_index({2.0, 5.0}, 3.0) == 1);
  CHECK(choose_ratio_index({2.0, 5.0}, 6.0) == 2);
  CHECK(choose_ratio_index({std::nullopt, 5.0}, 6.0) == 0);  // an infinite threshold is never passed
}

TEST_CASE("adaptive-compression: eq. 3 thresholds from the variants and switches at them", "[pipeline]") {
  // One split with choices (split 1: gamma 4, 2, 1; split 2 always 1). T_p = 50 fps, D = 8 * 20 kB
  // = 160 kbit. Eq. 3: theta = T_p * D * nu_left / (gamma_right * nu_right):
  // theta(4|2) = 50 * 160e3 * 0.80 / (2 * 0.85) = 3.7647 Mbps, theta(2|1) = 50 * 160e3 * 0.85 / 0.9 = 7.5556
  // Mbps.
  coinfer::AdaptiveCompressionScheduler s({1.0, 0.5, false, {}});
  const auto variants =
      s.plan_variants({chain_variant(4, 1, 0.80), chain_variant(2, 1, 0.85), chain_variant(1, 1, 0.90)},
                      coinfer::test::chain3());
  REQUIRE(s.split_choices().size() == 1);
  const auto& c = s.split_choices()[0];
  CHECK(c.split == 1);
  REQUIRE(c.thresholds_bps.size() == 2);
  const double t1 = 50 * 160e3 * 0.80 / (2 * 0.85), t2 = 50 * 160e3 * 0.85 / 0.9;
  CHECK(*c.thresholds_bps[0] == Approx(t1));
  CHECK(*c.thresholds_bps[1] == Approx(t2));
  const auto names = coinfer::test::link_names(s);
  // Start on gamma 4 (variant 0). Just below theta(4|2): stay.
  CHECK_FALSE(s.on_period(coinfer::test::view_of(names, {t1 * 0.999}, {1e9}, 0)));
  CHECK(s.take_stalls().empty());
  // Just above: gamma 2 (variant 1); d1 (encoder) and d2 (decoder) reload for 0.5 s, d3 does not.
  CHECK(s.on_period(coinfer::test::view_of(names, {t1 * 1.001}, {1e9}, 0)) == 1u);
  const auto stalls = s.take_stalls();
  REQUIRE(stalls.size() == 2);
  CHECK(stalls[0].device == "d1");
  CHECK(stalls[1].device == "d2");
  CHECK(stalls[0].seconds == 0.5);
  CHECK(s.take_stalls().empty());  // taken once
  // Above theta(2|1): no compression; below theta(4|2) again: gamma 4.
  CHECK(s.on_period(coinfer::test::view_of(names, {t2 * 1.001}, {0}, 1)) == 2u);
  CHECK(s.on_period(coinfer::test::view_of(names, {t1 * 0.5}, {0}, 2)) == 0u);
  const auto m = s.summary();
  CHECK(m.at("switches") == 3);
  CHECK(m.at("reload_stall_s") == 3 * 2 * 0.5);
  CHECK(m.at("periods") == 4);
}

TEST_CASE("adaptive-compression: measured versus oracle bandwidth", "[pipeline]") {
  // The devices measured 2 Mbps, the link truly carries 9 Mbps now: the measured scheduler keeps
  // gamma 4 (below theta(4|2) = 3.76 Mbps), the oracle one drops compression. Before any transfer
  // the measured one keeps its ratio whatever the true rate.
  const std::vector<coinfer::Plan> variants = {chain_variant(4, 1, 0.80), chain_variant(2, 1, 0.85),
                                               chain_variant(1, 1, 0.90)};
  coinfer::AdaptiveCompressionScheduler measured({1.0, 0.0, false, {}});
  coinfer::AdaptiveCompressionScheduler oracle({1.0, 0.0, true, {}});
  measured.plan_variants(variants, coinfer::test::chain3());
  oracle.plan_variants(variants, coinfer::test::chain3());
  const auto names = coinfer::test::link_names(measured);
  CHECK_FALSE(measured.on_period(coinfer::test::view_of(names, {0}, {9e6}, 0)));
  CHECK_FALSE(measured.on_period(coinfer::test::view_of(names, {2e6}, {9e6}, 0)));
  CHECK(oracle.on_period(coinfer::test::view_of(names, {2e6}, {9e6}, 0)) == 2u);
  CHECK(measured.take_stalls().empty());  // reload_s 0: no stall
}

TEST_CASE("adaptive-compression: each split point chooses its own ratio", "[pipeline]") {
  // Two communication stages, ratios {2, 1} at each, one variant per combination. With equal
  // accuracies of the single-compressed variants, theta(2|1) = 50 * 160e3 * 0.85 / 0.9 = 7.56 Mbps
  // at both splits: split 1 at 5 Mbps compresses, split 2 at 9 Mbps does not -> variant (2, 1).
  coinfer::AdaptiveCompressionScheduler s({1.0, 0.0, false, {}});
  s.plan_variants({chain_variant(1, 1, 0.90), chain_variant(2, 1, 0.85), chain_variant(1, 2, 0.85),
                   chain_variant(2, 2, 0.80)},
                  coinfer::test::chain3());
  REQUIRE(s.split_choices().size() == 2);
  const auto names = coinfer::test::link_names(s);
  CHECK(s.on_period(coinfer::test::view_of(names, {5e6, 9e6}, {}, 0)) == 1u);
  CHECK(s.on_period(coinfer::test::view_of(names, {9e6, 5e6}, {}, 1)) == 2u);
  CHECK(s.on_period(coinfer::test::view_of(names, {5e6, 5e6}, {}, 2)) == 3u);
}

TEST_CASE("adaptive-compression: variants that are not every combination are rejected", "[pipeline]") {
  coinfer::AdaptiveCompressionScheduler s({1.0, 0.0, false, {}});
  CHECK_THROWS_AS(
      s.plan_variants({chain_variant(1, 1, 0.9), chain_variant(2, 1, 0.85), chain_variant(1, 2, 0.85)},
                      coinfer::test::chain3()),
      coinfer::InputError);
  coinfer::Plan bad = chain_variant(2, 1, 1.5);
  CHECK_THROWS_AS(s.plan_variants({chain_variant(1, 1, 0.9), bad}, coinfer::test::chain3()),
                  coinfer::InputError);
}

TEST_CASE("adaptive-compression: a switch stalls the reloading devices in the replay", "[pipeline]") {
  // Split 1 only: variant 0 gamma 2 (10 kB, 10 ms at 8 Mbps; latency 20+10+20+20+20 = 90 ms),
  // variant 1 gamma 1 (20 kB, 20 ms; latency 100 ms); frames at 10 fps for 3 s. theta(2|1) =
  // 50 * 160e3 * 0.85 / 0.9 = 7.56 Mbps < the 8 Mbps every transfer measures (no latency), so the
  // first period (t = 0.97 s) switches to gamma 1 and stalls d1 and d2 (their layers change) until
  // 0.97 + 0.25 = 1.22. Frame 9 (0.9) has left d1 and d2 by then (s2 ends 0.95): it ends at 0.99.
  // Frame 10 (1.0) enters but waits for d1: s1 1.22..1.24, then 20 ms link1, s2, link2, s3: ends
  // 1.32. Frames 11 and 12 (1.1, 1.2) wait at the entry and follow 20 ms apart: 1.34, 1.36.
  // Frame 13 (1.3) finds d1 free (since 1.28) and every later stage ahead of frame 12: 1.40.
  coinfer::AdaptiveCompressionScheduler s({0.97, 0.25, false, {}});
  const auto variants =
      s.plan_variants({chain_variant(2, 1, 0.85), chain_variant(1, 1, 0.90)}, coinfer::test::chain3());
  const auto r =
      coinfer::simulate_in_child(coinfer::test::chain3(), variants,
                                 coinfer::stream_workload(10.0, 30, coinfer::DropPolicy::Queue), {}, &s);
  REQUIRE(r.frames.size() == 30);
  for (std::size_t k = 0; k < 10; ++k) {
    CHECK(r.frames[k].variant == 0u);
    CHECK(r.frames[k].latency_s() == Approx(0.09));
  }
  CHECK(r.frames[10].variant == 1u);
  CHECK(r.frames[10].end_s == Approx(1.32));
  CHECK(r.frames[11].end_s == Approx(1.34));
  CHECK(r.frames[12].end_s == Approx(1.36));
  CHECK(r.frames[13].end_s == Approx(1.40));
  for (std::size_t k = 13; k < 30; ++k) CHECK(r.frames[k].latency_s() == Approx(0.1));
  CHECK(r.scheduler_metrics.at("switches") == 1);
  CHECK(r.scheduler_metrics.at("reload_stall_s") == 0.5);
}
