// A shared server's queue: earliest deadline first and dynamic batching (platform.hpp
// QueueDiscipline, Batching), each run in its own child process.
#include <algorithm>
#include <string>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

namespace {

// Phones p1..pn and a server s (the last device) on one fast wired network.
Platform phones_and_server(int n) { return test::phones_and_server(n, NetworkKind::Wired, 8e9, 0.0); }

// A batch of b takes 1 + 0.5 (b - 1) task times: 4 tasks of 0.1 s in 0.25 s.
Batching batching(std::size_t max_batch, double max_wait_s) {
  Batching b;
  b.max_batch = max_batch;
  b.max_wait_s = max_wait_s;
  for (std::size_t k = 1; k <= max_batch; ++k) b.time_ratio.push_back(1.0 + 0.5 * static_cast<double>(k - 1));
  return b;
}

UserSource serve(int i, double seconds, Workload workload, const std::string& id = "infer") {
  return {"u" + std::to_string(i),
          "p" + std::to_string(i),
          {{"serve", "", {compute_task(id, "s", seconds, {})}}},
          workload};
}

Workload at(double start_s, double deadline_s = std::numeric_limits<double>::infinity()) {
  Workload w = single_workload();
  w.start_s = start_s;
  w.deadline_s = deadline_s;
  return w;
}

}  // namespace

TEST_CASE("server queue: edf serves the earliest deadline first, fifo the earliest release") {
  // u1 occupies the server from t = 0; u2 (deadline 5 s) is released before u3 (deadline 0.5 s).
  const std::vector<UserSource> users{serve(1, 0.1, at(0.0, 10.0)), serve(2, 0.1, at(0.01, 5.0)),
                                      serve(3, 0.1, at(0.02, 0.5))};
  Platform p = phones_and_server(3);
  const auto fifo = simulate_population_in_child(p, users);
  CHECK(fifo.frames[1].end_s == Approx(0.2));
  CHECK(fifo.frames[2].end_s == Approx(0.3));
  p.devices.back().queue = QueueDiscipline::Edf;
  const auto edf = simulate_population_in_child(p, users);
  CHECK(edf.frames[2].end_s == Approx(0.2));
  CHECK(edf.frames[1].end_s == Approx(0.3));
}

TEST_CASE("server queue: a stream without a deadline comes after every stream with one under edf") {
  const std::vector<UserSource> users{serve(1, 0.1, at(0.0)), serve(2, 0.1, at(0.01)),
                                      serve(3, 0.1, at(0.02, 9.0))};
  Platform p = phones_and_server(3);
  p.devices.back().queue = QueueDiscipline::Edf;
  const auto r = simulate_population_in_child(p, users);
  CHECK(r.frames[2].end_s == Approx(0.2));
  CHECK(r.frames[1].end_s == Approx(0.3));
}

TEST_CASE("server queue: at saturation dynamic batching serves max_batch per batch time") {
  // Eight users keep the server saturated (each one's next frame waits at its gate); batches of 4
  // tasks of 0.1 s take 0.25 s: 16 frames per second, batch k ending at 0.25 k.
  const int n = 8, frames = 40;
  std::vector<UserSource> users;
  for (int i = 1; i <= n; ++i)
    users.push_back(serve(i, 0.1, stream_workload(100.0, frames, DropPolicy::Queue)));
  Platform p = phones_and_server(n);
  p.devices.back().batching = batching(4, 0.0);
  const auto r = simulate_population_in_child(p, users);
  REQUIRE(r.completed_frames() == std::size_t(n * frames));
  double end = 0;
  for (const auto& f : r.frames) end = std::max(end, f.end_s);
  CHECK(end == Approx(n * frames / 4 * 0.25).epsilon(1e-9));
  CHECK(static_cast<double>(r.completed_frames()) / end == Approx(4 / 0.25).epsilon(1e-9));
  const auto& s = r.devices.back();
  CHECK(s.batches == std::size_t(n * frames / 4));
  CHECK(s.batched_tasks == std::size_t(n * frames));
}

TEST_CASE("server queue: a lone task waits max_wait for company, then runs alone") {
  Platform p = phones_and_server(1);
  p.devices.back().batching = batching(4, 0.05);
  const auto r = simulate_population_in_child(p, {serve(1, 0.1, at(0.0))});
  CHECK(r.frames[0].end_s == Approx(0.15).epsilon(1e-9));
  CHECK(r.devices.back().batches == 0);
}

TEST_CASE("server queue: a batch starts as soon as it is full, before max_wait") {
  Platform p = phones_and_server(2);
  p.devices.back().batching = batching(2, 1.0);
  const auto r = simulate_population_in_child(p, {serve(1, 0.1, at(0.0)), serve(2, 0.1, at(0.02))});
  // The second task fills the batch at 0.02: both end at 0.02 + 0.15.
  CHECK(r.frames[0].end_s == Approx(0.17).epsilon(1e-9));
  CHECK(r.frames[1].end_s == Approx(0.17).epsilon(1e-9));
}

TEST_CASE("server queue: tasks doing different work are not batched together") {
  Platform p = phones_and_server(2);
  p.devices.back().batching = batching(2, 0.0);
  const auto r = simulate_population_in_child(p, {serve(1, 0.1, at(0.0), "a"), serve(2, 0.1, at(0.0), "b")});
  CHECK(r.frames[0].end_s == Approx(0.1));
  CHECK(r.frames[1].end_s == Approx(0.2));
  CHECK(r.devices.back().batches == 0);
}

TEST_CASE("server queue: a batching device without batch times is refused") {
  Platform p = phones_and_server(1);
  p.devices.back().batching = batching(4, 0.0);
  p.devices.back().batching->time_ratio.resize(2);
  CHECK_THROWS_WITH(simulate_population(p, {serve(1, 0.1, at(0.0))}),
                    Catch::Contains("device 's' batches up to 4 tasks but has batch times for 2"));
}

TEST_CASE("server queue: with drop_expired a frame whose deadline passed in the queue is dropped there") {
  // Five frames of 0.1 s at once, deadline 0.25 s: the third starts at 0.2 (late but started), the
  // fourth's turn comes at 0.3, past its deadline: it and the fifth are dropped, the server idle.
  std::vector<UserSource> users;
  for (int i = 1; i <= 5; ++i) users.push_back(serve(i, 0.1, at(0.0, 0.25)));
  Platform p = phones_and_server(5);
  p.devices.back().drop_expired = true;
  const auto r = simulate_population_in_child(p, users);
  CHECK(r.frames[0].end_s == Approx(0.1));
  CHECK(r.frames[2].end_s == Approx(0.3));
  CHECK_FALSE(r.frames[2].deadline_met);
  for (std::size_t k : {3, 4}) {
    CHECK(r.frames[k].drop_reason == DropReason::Expired);
    CHECK_FALSE(r.frames[k].deadline_met);
  }
  CHECK(r.devices.back().executions == 3);
  CHECK(r.devices.back().busy_s == Approx(0.3));
}

TEST_CASE("server queue: an expired frame opens its stream's gate for the frames queued behind it") {
  // u1 holds the server for 1 s. u2 streams 5 frames at 10 fps (deadline 0.3 s, policy queue)
  // whose first stage is the server task: frame 0 expires at its turn (t = 1), frames 1-4 waited
  // at the gate past their deadlines and are dropped late.
  Platform p = phones_and_server(2);
  p.devices.back().drop_expired = true;
  const auto r = simulate_population_in_child(
      p, {serve(1, 1.0, at(0.0)), serve(2, 0.1, stream_workload(10.0, 5, DropPolicy::Queue, 0.3))});
  CHECK(r.frames[0].end_s == Approx(1.0));
  CHECK(r.frames[1].drop_reason == DropReason::Expired);
  for (std::size_t k = 2; k < 6; ++k) CHECK(r.frames[k].drop_reason == DropReason::Late);
}

TEST_CASE("server queue: an expired frame's transfer in flight finishes, its later tasks never start") {
  Platform p = phones_and_server(2);
  p.devices.back().drop_expired = true;
  // u2's frame: compute c on the server (behind u1's 1 s) in parallel with a 1.2 s upload, then j.
  Workload w = at(0.0, 0.3);
  const UserSource u2{"u2",
                      "p2",
                      {{"split",
                        "",
                        {compute_task("c", "s", 0.1, {}), transfer_task("x", "p2", "s", 1.2e9, {}),
                         compute_task("j", "s", 0.1, {"c", "x"})}}},
                      w};
  const auto r = simulate_population_in_child(p, {serve(1, 1.0, at(0.0)), u2});
  CHECK(r.frames[1].drop_reason == DropReason::Expired);
  CHECK(r.devices.back().executions == 1);  // u1's task only
  CHECK(r.end_s == Approx(1.2).epsilon(1e-6));
}
