// Per-frame task durations and sizes (FrameDecision / Continuation::run task_seconds and
// transfer_bytes) and per-frame scheduler values (Scheduler::frame_value_names / frame_values).
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Variant 0: upload x (1 B) then 1 s on b; variant 1: 1 s on b.
std::vector<Plan> upload_then_compute() {
  return {{"up", "", {transfer_task("x", "a", "b", 1.0, {}), compute_task("c", "b", 1.0, {"x"})}},
          {"more", "", {compute_task("c2", "b", 1.0, {})}}};
}

// Frame k: upload of (k + 1) * 1e5 B, compute of (k + 1) * 0.1 s; then variant 1 for
// `more_s`; values: "k2" = 2k, "half" = k / 2 (NaN on frame 0).
class PerFrame final : public Scheduler {
 public:
  explicit PerFrame(double more_s, std::string bad_id = "") : more_s_(more_s), bad_id_(std::move(bad_id)) {}
  std::string name() const override { return "perframe"; }
  FrameDecision on_frame(const SchedulerView& v) override {
    const double k = static_cast<double>(v.frame) + 1.0;
    FrameDecision d;
    d.variant = 0;
    d.transfer_bytes = {{"x", k * 1e5}};
    d.task_seconds = {{bad_id_.empty() ? "c" : bad_id_, k * 0.1}};
    return d;
  }
  Continuation on_plan_end(std::size_t frame, const SchedulerView& v) override {
    if (v.frames[frame].variant == 1) return Continuation::finish();
    return Continuation::run(1, {}, {{"c2", more_s_}});
  }
  std::vector<std::string> frame_value_names() const override { return {"k2", "half"}; }
  std::vector<double> frame_values(std::size_t frame) const override {
    const double k = static_cast<double>(frame);
    return {2.0 * k, frame == 0 ? std::numeric_limits<double>::quiet_NaN() : k / 2.0};
  }

 private:
  double more_s_;
  std::string bad_id_;
};

SimulationResult run(double more_s, std::string bad_id = "") {
  return simulation_result_from_json(Json::parse(run_in_child_process([&] {
    PerFrame s(more_s, bad_id);
    const auto w = stream_workload(0.2, 2, DropPolicy::Queue, kInf);  // frames at 0 and 5 s
    return simulation_result_to_json(simulate(test::wifi_cell_pair(), upload_then_compute(), w, {}, &s))
        .dump();
  })));
}

}  // namespace

TEST_CASE("per-frame values: a decision sets this frame's transfer size and compute time") {
  // Frame 0: 1e5 B at 1 MB/s + 10 ms = 0.11 s, then 0.1 s, then the continuation's 0.5 s: 0.71.
  // Frame 1 (at 5 s): 2e5 B -> 0.21 s, 0.2 s, 0.5 s: ends at 5.91.
  const auto r = run(0.5);
  CHECK(r.frames[0].end_s == Approx(0.71).epsilon(1e-9));
  CHECK(r.frames[1].end_s == Approx(5.91).epsilon(1e-9));
  CHECK(r.links[0].bytes == 3e5);
}

TEST_CASE("per-frame values: the scheduler's named values are kept per frame") {
  const auto r = run(0.5);
  REQUIRE(r.frame_columns.size() == 2);
  CHECK(r.frame_columns[0].name == "k2");
  CHECK(r.frame_columns[0].values == std::vector<double>{0.0, 2.0});
  CHECK(std::isnan(r.frame_columns[1].values[0]));
  CHECK(r.frame_columns[1].values[1] == 0.5);
}

TEST_CASE("per-frame values: a duration for no compute task, or a negative one, is an error") {
  CHECK_THROWS_WITH(run(0.5, "x"), Catch::Contains("scheduler 'perframe' set 0.1 s for 'x', which is no "
                                                   "compute task of variant 0"));
  CHECK_THROWS_WITH(run(-1.0), Catch::Contains("set -1 s for 'c2'"));
}
