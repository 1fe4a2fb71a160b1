// Populations with a scheduler per user (UserSource::scheduler): each one sees its own stream (its
// frames from 0, its variants, what its own device measured) and steers only its own frames. Each
// simulation runs in its own child process; what the schedulers saw comes back as text.
#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;

namespace {

// Phones p1..pn and a server s on one shared 8 Mbps (1 MB/s) WiFi cell with 10 ms latency.
Platform cell_with_server(int n) { return test::phones_and_server(n, NetworkKind::Wifi, 8e6, 0.01); }

// User i's variants: 0.1 s on its phone; an upload of 1 MB from its phone to the server.
std::vector<Plan> local_then_upload(int i) {
  const auto phone = "p" + std::to_string(i);
  return {{"local", "", {compute_task("c", phone, 0.1, {})}},
          {"up", "", {transfer_task("x", phone, "s", 1e6, {})}}};
}

// Offloads frame `offload` (continues it with variant 1) and records what it saw.
class Recorder final : public Scheduler {
 public:
  explicit Recorder(std::size_t offload, double metric = 0.0) : offload_(offload), metric_(metric) {}
  std::string name() const override { return "recorder"; }
  FrameDecision on_frame(const SchedulerView& v) override {
    seen += fmt::format("release {} of {} (variants {}, links measured {});", v.frame, v.frames.size(),
                        v.variant_count, measured(v));
    return {};
  }
  Continuation on_plan_end(std::size_t frame, const SchedulerView& v) override {
    seen += fmt::format("end {} variant {};", frame, v.frames[frame].variant);
    if (frame == offload_ && v.frames[frame].variant == 0) return Continuation::run(1);
    return Continuation::finish();
  }
  std::map<std::string, double> summary() const override { return {{"metric", metric_}}; }
  std::string seen;

 private:
  // Transfers measured on the most measured link.
  static std::size_t measured(const SchedulerView& v) {
    std::size_t n = 0;
    for (const auto& m : v.measured_links) n = std::max(n, m.transfers);
    return n;
  }
  std::size_t offload_;
  double metric_;
};

UserSource user(int i, Scheduler* scheduler, Workload w) {
  return {"u" + std::to_string(i), "p" + std::to_string(i), local_then_upload(i), std::move(w), scheduler};
}

}  // namespace

TEST_CASE("population scheduler: each user's scheduler sees its own frames from 0 and its own variants") {
  const auto text = run_in_child_process([] {
    Recorder first(0), second(1);
    const Workload w = stream_workload(0.5, 2, DropPolicy::Queue, 5.0);  // releases at 0 and 2 s
    const auto r = simulate_population(cell_with_server(2), {user(1, &first, w), user(2, &second, w)});
    // Frame 1 of user 2 (frame 3 of the run) ran user 2's upload: its phone sent the megabyte.
    return fmt::format("{}|{}|{} {} {}", first.seen, second.seen, r.frames[3].variant,
                       r.devices[1].bytes_sent, r.devices[0].bytes_sent);
  });
  // Devices are p1, p2, s: p1 sent user 1's frame 0, p2 user 2's frame 1.
  CHECK(text ==
        "release 0 of 2 (variants 2, links measured 0);end 0 variant 0;end 0 variant 1;"
        "release 1 of 2 (variants 2, links measured 1);end 1 variant 0;|"
        "release 0 of 2 (variants 2, links measured 0);end 0 variant 0;"
        "release 1 of 2 (variants 2, links measured 0);end 1 variant 0;end 1 variant 1;|1 1000000 1000000");
}

TEST_CASE("population scheduler: a user measures its own transfers, not another user's") {
  // User 1 uploads its frame 0 (done by 1.11 s); user 2 offloads nothing and releases at 2 s: its
  // view shows no measured transfer on the cell the upload crossed.
  const auto text = run_in_child_process([] {
    Recorder uploads(0), stays(99);
    Workload late = stream_workload(1.0, 1, DropPolicy::Queue, 5.0);
    late.start_s = 2.0;
    simulate_population(
        cell_with_server(2),
        {user(1, &uploads, stream_workload(1.0, 1, DropPolicy::Queue, 5.0)), user(2, &stays, late)});
    return stays.seen;
  });
  CHECK(text == "release 0 of 1 (variants 2, links measured 0);end 0 variant 0;");
}

TEST_CASE("population scheduler: one user with a scheduler gives the single-source run byte for byte") {
  const Platform p = cell_with_server(1);
  const Workload w = stream_workload(4.0, 6, DropPolicy::Queue, 2.0);
  Recorder single_scheduler(2, 5.0), user_scheduler(2, 5.0);
  const auto single = simulate_in_child(p, local_then_upload(1), w, {}, &single_scheduler);
  auto population = simulate_population_in_child(p, {user(1, &user_scheduler, w)});
  REQUIRE(population.users.size() == 1);
  REQUIRE(population.frames[2].variant == 1);
  population.users.clear();
  CHECK(simulation_result_to_json(population).dump() == simulation_result_to_json(single).dump());
}

TEST_CASE("population scheduler: the run's scheduler metrics are the users' summaries averaged key by key") {
  Recorder a(9, 1.0), b(9, 3.0);
  const Workload w = stream_workload(1.0, 1, DropPolicy::Queue, 5.0);
  const auto r = simulate_population_in_child(cell_with_server(2), {user(1, &a, w), user(2, &b, w)});
  REQUIRE(r.scheduler_metrics.count("metric") == 1);
  CHECK(r.scheduler_metrics.at("metric") == 2.0);
}

TEST_CASE("population scheduler: users with and without a scheduler run side by side") {
  Recorder offloads(0);
  const Workload w = stream_workload(1.0, 1, DropPolicy::Queue, 5.0);
  UserSource plain = user(2, nullptr, w);
  const auto r = simulate_population_in_child(cell_with_server(2), {user(1, &offloads, w), plain});
  REQUIRE(r.frames.size() == 2);
  CHECK(r.frames[0].variant == 1);  // continued with its upload
  CHECK(r.frames[1].variant == 0);  // no scheduler: variant 0, finished with its plan
  CHECK(r.frames[1].latency_s() == Approx(0.1));
}
