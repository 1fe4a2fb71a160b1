// Background jobs (Scheduler::take_background / on_background_end): compute tasks that belong to
// no frame queue on their device with the frames' tasks, pay busy power, count per device and
// keep the run going until they end; each against a closed form.
#include <limits>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// One device `a` (idle 1 W, busy 2 W) with `slots` units.
Platform one_device(std::size_t slots = 1) {
  Platform p = test::make_platform({test_device("a")}, {});
  p.devices[0].slots = slots;
  return p;
}

// Every frame computes 1 s on a.
std::vector<Plan> one_second() { return {{"p", "", {compute_task("c", "a", 1.0, {})}}}; }

// Asks for `jobs` the first time it is asked; writes down "tag@time" at each job's end.
class Asker final : public Scheduler {
 public:
  explicit Asker(std::vector<BackgroundJob> jobs) : jobs_(std::move(jobs)) {}
  std::string name() const override { return "asker"; }
  bool runs_background() const override { return true; }
  std::vector<BackgroundJob> take_background(const SchedulerView&) override { return std::move(jobs_); }
  void on_background_end(std::size_t tag, const SchedulerView& view) override {
    ends += fmt::format("{}@{};", tag, view.now_s);
  }
  std::string ends;

 private:
  std::vector<BackgroundJob> jobs_;
};

struct AskerRun {
  SimulationResult result;
  std::string ends;
};

AskerRun run_asker(const Platform& p, const Workload& w, std::vector<BackgroundJob> jobs) {
  const auto text = run_in_child_process([&] {
    Asker s(jobs);
    Json j = simulation_result_to_json(simulate(p, one_second(), w, {}, &s));
    j["ends"] = s.ends;
    return j.dump();
  });
  const Json j = Json::parse(text);
  return {simulation_result_from_json(j), j.at("ends").get<std::string>()};
}

}  // namespace

TEST_CASE("background: a job queues after the frames released before it and ahead of later ones") {
  // Frame 0 (t = 0) runs 0-1 on a; the job, asked at frame 0's release, ranks after frame 0 and
  // ahead of frame 1 (released at 0.5, admitted at 1 when frame 0's stage ends): job 1-3,
  // frame 1 3-4. The device was busy 1 + 2 + 1 = 4 s of 4: 2 W * 4 s = 8 J.
  const auto r =
      run_asker(one_device(), stream_workload(2.0, 2, DropPolicy::Queue, kInf), {{"a", 2.0, 7, "featnet"}});
  CHECK(r.result.frames[0].end_s == Approx(1.0).epsilon(1e-9));
  CHECK(r.result.frames[1].start_s == Approx(1.0).epsilon(1e-9));
  CHECK(r.result.frames[1].end_s == Approx(4.0).epsilon(1e-9));
  CHECK(r.ends == "7@3;");
  CHECK(r.result.devices[0].background_jobs == 1);
  CHECK(r.result.devices[0].background_busy_s == Approx(2.0).epsilon(1e-9));
  CHECK(r.result.devices[0].executions == 3);
  CHECK(r.result.devices[0].compute_energy_j == Approx(8.0).epsilon(1e-9));
}

TEST_CASE("background: the run ends when the last job ends, after the last frame") {
  // One frame 0-1 s; the job waits for it: 1-3. The run ends at 3; the frame still ends at 1.
  const auto r = run_asker(one_device(), single_workload(), {{"a", 2.0, 0, "late"}});
  CHECK(r.result.frames[0].end_s == Approx(1.0).epsilon(1e-9));
  CHECK(r.result.end_s == Approx(3.0).epsilon(1e-9));
}

TEST_CASE("background: a device with two slots runs a job and a frame's task at once") {
  // Frame 0 0-1 and the job 0-2 on the two units; frame 1 (admitted at 1) takes the freed unit:
  // 1-2. Everything ends at 2.
  const auto r =
      run_asker(one_device(2), stream_workload(2.0, 2, DropPolicy::Queue, kInf), {{"a", 2.0, 1, "featnet"}});
  CHECK(r.result.frames[1].end_s == Approx(2.0).epsilon(1e-9));
  CHECK(r.ends == "1@2;");
  CHECK(r.result.end_s == Approx(2.0).epsilon(1e-9));
}

TEST_CASE("background: jobs are counted only in runs that had them") {
  // Without jobs, the results' JSON has no background fields at all (byte-identical to before).
  const auto r = run_asker(one_device(), single_workload(), {});
  CHECK(r.result.devices[0].background_jobs == 0);
  const Json j = simulation_result_to_json(r.result);
  CHECK_FALSE(j.at("devices").at(0).contains("background_jobs"));
}

TEST_CASE("background: an unknown device or a time not > 0 is an error naming the scheduler") {
  auto fails = [](BackgroundJob job) {
    return run_in_child_process([&] {
      Asker s({job});
      simulate(one_device(), one_second(), single_workload(), {}, &s);
      return std::string();
    });
  };
  CHECK_THROWS_WITH(fails({"gpu", 1.0, 0, ""}),
                    Catch::Contains("scheduler 'asker'") && Catch::Contains("no such device"));
  CHECK_THROWS_WITH(fails({"a", 0.0, 0, ""}), Catch::Contains("must be > 0 and finite"));
  CHECK_THROWS_WITH(fails({"a", kInf, 0, ""}), Catch::Contains("must be > 0 and finite"));
}
