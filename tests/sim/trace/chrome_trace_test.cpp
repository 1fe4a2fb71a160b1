#include <catch2/catch.hpp>

#include <set>

#include "sim/replay/simulate.hpp"
#include "sim/trace/chrome_trace.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

TEST_CASE("chrome trace: one track per device and link, one slice per task") {
  const Platform p =
      test::make_platform({test_device("a"), test_device("b")},
                          {test::shared_network("w", NetworkKind::Wifi, {"a", "b"}, 8e6, 0.01)});
  const Plan plan{"p",
                  "",
                  {compute_task("ca", "a", 0.5, {}, "conv1"), transfer_task("x", "a", "b", 1e6, {"ca"}),
                   compute_task("cb", "b", 0.25, {"x"})}};
  SimOptions options;
  options.record_trace = true;
  const auto r = simulate_in_child(p, {plan}, single_workload(), options);
  const Json trace = chrome_trace_json(r);
  std::set<std::string> threads;
  std::set<std::string> slices;
  double x_dur_us = 0.0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") threads.insert(e["args"]["name"].get<std::string>());
    if (e["ph"] == "X") {
      slices.insert(e["name"].get<std::string>());
      if (e["name"] == "x") x_dur_us = e["dur"].get<double>();
      if (e["name"] == "ca") CHECK(e["args"]["label"] == "conv1");
    }
  }
  // Devices a, b and the link w (radios start asleep, but no wake-up is configured).
  CHECK(threads == std::set<std::string>{"a", "b", "w"});
  CHECK(slices == std::set<std::string>{"ca", "x", "cb"});
  CHECK(x_dur_us == Approx(1.01e6));  // L + 8S/R in microseconds
  CHECK(trace["displayTimeUnit"] == "ms");
}
