#include <cmath>

#include <catch2/catch.hpp>

#include "sim/metrics/user_metrics.hpp"
#include "tests/sim/metrics/frame_records.hpp"

using namespace coinfer;

namespace {

FrameRecord done(double release_s, double end_s, bool met) {
  return test::completed_frame(release_s, end_s, met);
}

FrameRecord dropped(double release_s) { return test::dropped_frame(release_s); }

// User a: 20 frames of 10 ms, all within the deadline. User b: 18 of 30 ms within, 2 dropped.
SimulationResult two_users() {
  SimulationResult r;
  for (int k = 0; k < 20; ++k) r.frames.push_back(done(k * 0.1, k * 0.1 + 0.01, true));
  for (int k = 0; k < 20; ++k)
    r.frames.push_back(k < 2 ? dropped(k * 0.1) : done(k * 0.1, k * 0.1 + 0.03, true));
  r.users = {{"a", "pa", 0, 20}, {"b", "pb", 20, 20}};
  r.devices.resize(2);
  r.devices[0].device = "pa";
  r.devices[1].device = "pb";
  r.devices[0].energy_j = 1.5;
  r.devices[1].energy_j = 2.5;
  return r;
}

}  // namespace

TEST_CASE("user metrics: Jain's index is 1 for equal shares and 1/n when one user gets everything") {
  CHECK(jain_index({2.0, 2.0, 2.0, 2.0}) == Approx(1.0));
  CHECK(jain_index({3.0, 0.0, 0.0, 0.0}) == Approx(0.25));
  CHECK(jain_index({1.0, 2.0}) == Approx(9.0 / 10.0));
  CHECK(std::isnan(jain_index({})));
  CHECK(std::isnan(jain_index({0.0, 0.0})));
}

TEST_CASE("user metrics: each user's frames, percentiles, throughput and device energy") {
  const auto users = user_metrics(two_users());
  REQUIRE(users.size() == 2);
  CHECK(users[0].completed == 20);
  CHECK(users[0].p95_ms == Approx(10.0));
  CHECK(users[0].throughput_fps == Approx(20.0 / 1.91));
  CHECK(users[0].energy_j == 1.5);
  CHECK(users[1].dropped == 2);
  CHECK(users[1].completed == 18);
  CHECK(users[1].max_ms == Approx(30.0));
  CHECK(users[1].throughput_fps == Approx(18.0 / 1.93));
  CHECK(users[1].energy_j == 2.5);
}

TEST_CASE("user metrics: a user is within its SLO when 95% of the frames it released met the deadline") {
  const auto users = user_metrics(two_users());
  CHECK(users[0].within_slo);
  CHECK_FALSE(users[1].within_slo);  // 18 of 20 = 90%
  const Json p = population_metrics(two_users());
  CHECK(p.at("users") == 2);
  CHECK(p.at("users_within_slo") == 1);
  CHECK(p.at("p95_ms").at("max").get<double>() == Approx(30.0));
}

TEST_CASE("user metrics: users.csv has one row per user, blank latencies for a user with none") {
  SimulationResult r = two_users();
  r.frames.push_back(dropped(0.0));
  r.users.push_back({"c", "pc", 40, 1});
  const auto csv = users_csv(r);
  CHECK(csv.starts_with("user,device,frames,completed,dropped,deadline_met,p50_ms,p95_ms,max_ms,"));
  CHECK(csv.find("\nc,pc,1,0,1,0,,,,0,,false\n") != std::string::npos);
}
