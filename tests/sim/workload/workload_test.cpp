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

namespace {

std::string workload_error(const std::string& text) {
  try {
    workload_from_json(Json::parse(text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("workload: a rate of 1e-300 fps is out of range, not 0 ms latencies") {
  // the second frame would be released at 1e300 s, where a double no longer resolves milliseconds
  CHECK_THAT(workload_error(R"({"kind": "stream", "rate_fps": 1e-300, "frames": 10})"),
             Catch::Contains("workload.rate_fps: expected a number in [1e-06, 1000000], got 1e-300"));
  CHECK_THAT(workload_error(R"({"kind": "stream", "rate_fps": 1e7, "frames": 10})"),
             Catch::Contains("workload.rate_fps: expected a number in [1e-06, 1000000]"));
}

TEST_CASE("workload: the rate bounds themselves are accepted") {
  CHECK(workload_from_json(Json::parse(R"({"kind": "stream", "rate_fps": 1e6, "frames": 10})")).rate_fps ==
        1e6);
  CHECK(workload_from_json(Json::parse(R"({"kind": "stream", "rate_fps": 1e-6, "frames": 2})")).rate_fps ==
        1e-6);
}

TEST_CASE("workload: a stream whose last frame falls past 1e9 s is rejected") {
  // 1e-6 fps: frame 1000 is released at 999 / 1e-6 = 9.99e8 s (fine), frame 1002 at 1.001e9 s (not)
  CHECK(workload_from_json(Json::parse(R"({"kind": "stream", "rate_fps": 1e-6, "frames": 1000})")).frames ==
        1000);
  CHECK_THAT(workload_error(R"({"kind": "stream", "rate_fps": 1e-6, "frames": 1002})"),
             Catch::Contains("workload.rate_fps: the last frame would be released at 1.001e+09 s"));
  // start_s counts too: 0.5e9 + 999e6 s
  CHECK_THAT(workload_error(R"({"kind": "stream", "rate_fps": 1e-6, "frames": 1000, "start_s": 5e8})"),
             Catch::Contains("beyond the 1e+09 s horizon"));
}

TEST_CASE("workload: a duration may not release more than 1e8 frames") {
  // 1e6 fps for 1000 s = 1e9 frames
  CHECK_THAT(workload_error(R"({"kind": "stream", "rate_fps": 1e6, "duration_s": 1000})"),
             Catch::Contains("workload.duration_s: the stream would release 1000000000 frames"));
}

TEST_CASE("workload: times beyond 1e9 s are out of range") {
  CHECK_THAT(workload_error(R"({"kind": "single", "deadline_s": 1e10})"),
             Catch::Contains("workload.deadline_s: expected a number in [0, 1000000000]"));
  CHECK_THAT(workload_error(R"({"kind": "single", "start_s": 2e9})"),
             Catch::Contains("workload.start_s: expected a number in [0, 1000000000]"));
  CHECK_THAT(workload_error(R"({"kind": "stream", "rate_fps": 1, "duration_s": 1e300})"),
             Catch::Contains("workload.duration_s: expected a number in [0, 1000000000]"));
}

TEST_CASE("workload: counts beyond 1e8 are out of range") {
  CHECK_THAT(workload_error(R"({"kind": "training", "iterations": 1000000000})"),
             Catch::Contains("workload.iterations: expected an integer in [1, 100000000]"));
  CHECK_THAT(workload_error(R"({"kind": "stream", "rate_fps": 1, "frames": 1180591620717411303424})"),
             Catch::Contains("workload.frames: integer out of range"));
}

TEST_CASE("workload: max_in_flight round-trips and is checked") {
  const Workload w = workload_from_json(
      Json::parse(R"({"kind": "stream", "rate_fps": 3, "frames": 10, "max_in_flight": 7})"));
  CHECK(w.max_in_flight == 7);
  CHECK(workload_from_json(workload_to_json(w)).max_in_flight == 7);
  CHECK(workload_from_json(Json::parse(R"({"kind": "stream", "rate_fps": 3, "frames": 1})")).max_in_flight ==
        0);
  CHECK_THROWS_WITH(workload_from_json(
                        Json::parse(R"({"kind": "stream", "rate_fps": 3, "frames": 1, "max_in_flight": 0})")),
                    Catch::Contains("workload.max_in_flight"));
}

TEST_CASE("workload: queue_capacity needs the queue policy") {
  const Workload w = workload_from_json(Json::parse(
      R"({"kind": "stream", "rate_fps": 3, "frames": 10, "policy": "queue", "queue_capacity": 1})"));
  CHECK(w.queue_capacity == 1);
  CHECK(workload_from_json(workload_to_json(w)).queue_capacity == 1);
  CHECK_THROWS_WITH(workload_from_json(Json::parse(
                        R"({"kind": "stream", "rate_fps": 3, "frames": 1, "queue_capacity": 1})")),
                    Catch::Contains("workload.queue_capacity: a queue capacity needs policy: queue"));
}

namespace {

Workload poisson(double rate_fps, std::size_t frames, std::uint64_t seed) {
  Workload w = stream_workload(rate_fps, frames);
  w.arrivals = Arrivals::Poisson;
  w.seed = seed;
  return w;
}

std::vector<double> releases(const Workload& w, std::size_t n) {
  ReleaseClock clock(w);
  std::vector<double> out(n);
  for (auto& t : out) t = clock.next();
  return out;
}

}  // namespace

TEST_CASE("workload: a periodic stream's clock gives start + k / rate") {
  Workload w = stream_workload(4.0, 5);
  w.start_s = 2.0;
  CHECK(releases(w, 3) == std::vector<double>{2.0, 2.25, 2.5});
  CHECK(releases(training_workload(3), 2) == std::vector<double>{0.0, 0.0});
}

TEST_CASE("workload: Poisson gaps are exponential with mean 1 / rate") {
  // 1e5 gaps of mean 0.1 s: the sample mean's standard error is 0.1 / sqrt(1e5) = 3.2e-4 (0.3%),
  // and an exponential's P(gap > mean) is 1/e.
  const auto t = releases(poisson(10.0, 100000, 3), 100000);
  double longer = 0;
  for (std::size_t k = 1; k < t.size(); ++k) {
    REQUIRE(t[k] > t[k - 1]);
    longer += t[k] - t[k - 1] > 0.1;
  }
  CHECK(t.back() / 100000.0 == Approx(0.1).epsilon(0.01));
  CHECK(longer / 99999.0 == Approx(std::exp(-1.0)).epsilon(0.01));
}

TEST_CASE("workload: the same seed releases at the same times, another seed at others") {
  CHECK(releases(poisson(30.0, 50, 7), 50) == releases(poisson(30.0, 50, 7), 50));
  CHECK(releases(poisson(30.0, 50, 7), 50) != releases(poisson(30.0, 50, 8), 50));
}

TEST_CASE("workload: a Poisson stream over a duration releases the draws that fall in it") {
  Workload w = poisson(100.0, 0, 5);
  w.duration_s = 10.0;
  const std::size_t n = w.frame_count();
  const auto t = releases(w, n + 1);
  CHECK(t[n - 1] < 10.0);
  CHECK(t[n] >= 10.0);
  CHECK(static_cast<double>(n) == Approx(1000).margin(100));  // Poisson(1000): sd 32
}

TEST_CASE("workload JSON: arrivals poisson round-trips, another word is one error naming the key") {
  const Workload w = workload_from_json(
      Json::parse(R"({"kind": "stream", "rate_fps": 30, "frames": 10, "arrivals": "poisson"})"));
  CHECK(w.arrivals == Arrivals::Poisson);
  CHECK(workload_from_json(workload_to_json(w)).arrivals == Arrivals::Poisson);
  CHECK(workload_to_json(stream_workload(30, 10)).count("arrivals") == 0);
  CHECK_THROWS_WITH(workload_from_json(Json::parse(
                        R"({"kind": "stream", "rate_fps": 3, "frames": 2, "arrivals": "bursty"})")),
                    Catch::Contains("workload.arrivals"));
}
