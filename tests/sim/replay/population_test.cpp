// Populations (simulate_population): many users' streams on shared cells and servers, each in its
// own child process (SimGrid runs one simulation per process).
#include <algorithm>
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

namespace {

// Phones p1..pn and a server s on one shared 8 Mbps (1 MB/s) WiFi cell with 10 ms latency.
Platform cell_with_server(int n) { return test::phones_and_server(n, NetworkKind::Wifi, 8e6, 0.01); }

UserSource user(int i, Plan plan, Workload workload = single_workload()) {
  const auto phone = "p" + std::to_string(i);
  return {"u" + std::to_string(i), phone, {std::move(plan)}, workload};
}

}  // namespace

TEST_CASE("population: N users each sending S bytes at once on one cell all finish at L + N 8 S / R") {
  for (int n : {1, 2, 4, 8}) {
    std::vector<UserSource> users;
    for (int i = 1; i <= n; ++i)
      users.push_back(user(i, {"up", "", {transfer_task("x", "p" + std::to_string(i), "s", 1e6, {})}}));
    const auto r = simulate_population_in_child(cell_with_server(n), users);
    INFO(n << " users");
    REQUIRE(r.users.size() == std::size_t(n));
    REQUIRE(r.frames.size() == std::size_t(n));
    for (const auto& f : r.frames) CHECK(f.end_s == Approx(0.01 + n * 8 * 1e6 / 8e6).epsilon(1e-9));
  }
}

TEST_CASE("population: N frames released together on a one-slot server finish at d, 2d, ..., Nd") {
  const int n = 6;
  const double d = 0.1;
  std::vector<UserSource> users;
  for (int i = 1; i <= n; ++i) users.push_back(user(i, {"serve", "", {compute_task("c", "s", d, {})}}));
  const auto r = simulate_population_in_child(cell_with_server(n), users);
  std::vector<double> ends;
  for (const auto& f : r.frames) ends.push_back(f.end_s);
  std::sort(ends.begin(), ends.end());
  for (int k = 0; k < n; ++k) CHECK(ends[std::size_t(k)] == Approx((k + 1) * d).epsilon(1e-9));
}

TEST_CASE("population: a shared server serves the users' frames in release order, not user order") {
  // User i releases at (n - i) ms: the last user's frame is first in the server's queue.
  const int n = 4;
  std::vector<UserSource> users;
  for (int i = 1; i <= n; ++i) {
    Workload w = single_workload();
    w.start_s = (n - i) * 1e-3;
    users.push_back(user(i, {"serve", "", {compute_task("c", "s", 0.1, {})}}, w));
  }
  const auto r = simulate_population_in_child(cell_with_server(n), users);
  for (int i = 1; i <= n; ++i)
    CHECK(r.frames[std::size_t(i - 1)].end_s == Approx((n - i + 1) * 0.1).epsilon(1e-9));
}

TEST_CASE("population: each user's first stage gates only its own frames") {
  // Two users stream at 10 fps with drop-when-busy through a 0.15 s first stage on their own
  // phone: each drops every other frame of its own, whatever the other does.
  std::vector<UserSource> users;
  for (int i = 1; i <= 2; ++i) {
    const auto phone = "p" + std::to_string(i);
    users.push_back(user(i, {"local", "", {compute_task("c", phone, 0.15, {})}}, stream_workload(10.0, 10)));
  }
  const auto r = simulate_population_in_child(cell_with_server(2), users);
  REQUIRE(r.frames.size() == 20);
  for (const auto& u : r.users) {
    std::size_t completed = 0;
    for (std::size_t k = u.first_frame; k < u.first_frame + u.frames; ++k)
      completed += r.frames[k].completed();
    CHECK(completed == 5);
  }
}

TEST_CASE("population: one user gives the single-source run's result byte for byte") {
  const Platform p = cell_with_server(1);
  const Plan plan{"split",
                  "",
                  {compute_task("a", "p1", 0.05, {}), transfer_task("x", "p1", "s", 2e5, {"a"}),
                   compute_task("b", "s", 0.02, {"x"}), transfer_task("y", "s", "p1", 1e3, {"b"})}};
  const Workload w = stream_workload(8.0, 40, DropPolicy::Queue, 0.3);
  const auto single = simulate_in_child(p, {plan}, w);
  auto population = simulate_population_in_child(p, {user(1, plan, w)});
  REQUIRE(population.users.size() == 1);
  population.users.clear();
  CHECK(simulation_result_to_json(population).dump() == simulation_result_to_json(single).dump());
}

TEST_CASE("population: a user without a plan is refused") {
  UserSource u = user(1, {"serve", "", {compute_task("c", "s", 0.1, {})}});
  u.variants.clear();
  CHECK_THROWS_AS(simulate_population(cell_with_server(1), {u}), InputError);
  CHECK_THROWS_AS(simulate_population(cell_with_server(1), {}), InputError);
}

namespace {

// A split plan for the device `phone`: compute there, upload, compute on the server, download.
Plan split_plan(const std::string& phone) {
  return {"split",
          "",
          {compute_task("a", phone, 0.05, {}), transfer_task("x", phone, "s", 2e5, {"a"}),
           compute_task("b", "s", 0.02, {"x"}), transfer_task("y", "s", phone, 1e3, {"b"})}};
}

}  // namespace

TEST_CASE("population: users sharing one plan through a stand-in give a plan each's result byte for byte") {
  const int n = 4;
  const auto shared =
      std::make_shared<const SharedPlans>(SharedPlans{kUserDevice, {split_plan(kUserDevice)}});
  std::vector<UserSource> own, sharing;
  for (int i = 1; i <= n; ++i) {
    Workload w = stream_workload(8.0, 20, DropPolicy::Queue, 0.5);
    w.start_s = i * 0.01;
    own.push_back(user(i, split_plan("p" + std::to_string(i)), w));
    UserSource u = user(i, split_plan("unused"), w);
    u.variants.clear();
    u.shared = shared;
    sharing.push_back(u);
  }
  const auto a = simulate_population_in_child(cell_with_server(n), own);
  const auto b = simulate_population_in_child(cell_with_server(n), sharing);
  REQUIRE(a.completed_frames() == std::size_t(n * 20));
  CHECK(a.links.front().bytes > 0.0);  // the phones' transfers went over the cell
  CHECK(simulation_result_to_json(b).dump() == simulation_result_to_json(a).dump());
}

TEST_CASE("population: shared plans beside a user's own, or on a device the platform lacks, are refused") {
  const auto shared =
      std::make_shared<const SharedPlans>(SharedPlans{kUserDevice, {split_plan(kUserDevice)}});
  UserSource both = user(1, split_plan("p1"));
  both.shared = shared;
  CHECK_THROWS_WITH(simulate_population(cell_with_server(1), {both}),
                    Catch::Contains("users") && Catch::Contains("plans of its own and shared ones"));
  UserSource nowhere = user(1, split_plan("p1"));
  nowhere.variants.clear();
  nowhere.shared = shared;
  nowhere.device = "p9";
  CHECK_THROWS_WITH(simulate_population(cell_with_server(1), {nowhere}),
                    Catch::Contains("'p9', which is no device of platform"));
}

TEST_CASE("population: users of very different frame counts each run their own frames") {
  // The replay finds a frame's user by an index over the users' frame ranges: a user of 300
  // frames among users of one, so that the index's buckets span many users and parts of one.
  // User i computes 1 + i ms a frame on its own phone at 10 fps: every frame of it ends that long
  // after its release, and only its own frames take that long.
  const std::vector<std::size_t> counts{1, 1, 300, 1, 2, 1, 1, 57, 1, 1, 1, 4};
  const int n = static_cast<int>(counts.size());
  std::vector<UserSource> users;
  for (int i = 1; i <= n; ++i) {
    const auto phone = "p" + std::to_string(i);
    const double d = (1 + i) * 1e-3;
    auto w = stream_workload(10.0, counts[std::size_t(i - 1)], DropPolicy::Queue);
    w.start_s = i * 1e-4;
    users.push_back(user(i, {"local", "", {compute_task("c", phone, d, {})}}, w));
  }
  const auto r = simulate_population_in_child(cell_with_server(n), users);
  REQUIRE(r.users.size() == counts.size());
  for (std::size_t u = 0; u < counts.size(); ++u) {
    INFO("user " << u + 1);
    REQUIRE(r.users[u].frames == counts[u]);
    const double d = (2.0 + static_cast<double>(u)) * 1e-3;
    for (std::size_t k = r.users[u].first_frame; k < r.users[u].first_frame + r.users[u].frames; ++k) {
      REQUIRE(r.frames[k].completed());
      CHECK(r.frames[k].end_s - r.frames[k].release_s == Approx(d).epsilon(1e-9));
    }
  }
}
