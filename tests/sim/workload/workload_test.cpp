#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/workload/scheduler.hpp"
#include "sim/workload/workload.hpp"

using namespace coinfer;

TEST_CASE("workload: frame counts and release times") {
  CHECK(single_workload().frame_count() == 1);
  CHECK(training_workload(7).frame_count() == 7);
  const Workload s = stream_workload(4.0, 10);
  CHECK(s.frame_count() == 10);
  CHECK(s.release_s(3) == Approx(0.75));  // k / rate
  Workload d = stream_workload(4.0, 0);
  d.duration_s = 1.0;  // releases at 0, 0.25, 0.5, 0.75 (1.0 is outside)
  CHECK(d.frame_count() == 4);
  d.duration_s = 1.01;
  CHECK(d.frame_count() == 5);
}

TEST_CASE("workload JSON") {
  const Workload w = workload_from_json(Json::parse(
      R"({"kind": "stream", "rate_fps": 30, "frames": 100, "policy": "queue", "deadline_s": 0.2})"));
  CHECK(w.kind == WorkloadKind::Stream);
  CHECK(w.policy == DropPolicy::Queue);
  CHECK(w.deadline_s == Approx(0.2));
  CHECK(workload_from_json(workload_to_json(w)).frame_count() == 100);
  CHECK(workload_from_json(Json::parse(R"({"kind": "training", "iterations": 3})")).frame_count() == 3);
  CHECK_THROWS_WITH(workload_from_json(Json::parse(R"({"kind": "stream", "rate_fps": 0, "frames": 1})")),
                    Catch::Contains("workload.rate_fps"));
  CHECK_THROWS_WITH(workload_from_json(Json::parse(R"({"kind": "stream", "rate_fps": 3})")),
                    Catch::Contains("give either 'frames' or 'duration_s'"));
  CHECK_THROWS_WITH(
      workload_from_json(Json::parse(R"({"kind": "stream", "rate_fps": 3, "frames": 2, "policy": "x"})")),
      Catch::Contains("workload.policy"));
}

TEST_CASE("the no-op scheduler keeps the current variant") {
  NoopScheduler s;
  SchedulerView v;
  const FrameDecision d = s.on_frame(v);
  CHECK_FALSE(d.variant.has_value());
  CHECK_FALSE(d.drop);
  CHECK(s.period_s() == 0.0);
  CHECK(s.name() == "none");
}
