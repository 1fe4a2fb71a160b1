// Simulator throughput: a 10,000-frame stream through a 5-stage pipeline over 5 phones on one
// WiFi cell, replayed by coinfer, against a bare SimGrid program doing the same number of
// executions and messages on the same platform shape, both measured in this run (each in its
// own child process, since SimGrid runs one simulation per process). Prints wall times,
// simulated executions and messages per second, and the ratio (target <= 2).
//
//     build/bench/simulator_bench [frames] [repeats]
#include <xbt/log.h>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bare_engine.hpp"
#include "sim/core/json_access.hpp"
#include "sim/replay/simulate.hpp"

namespace {

namespace sg4 = simgrid::s4u;
using coinfer::Json;

constexpr int kDevices = 5;
constexpr double kStageS = 0.02;     // compute per stage
constexpr double kBytes = 20000.0;   // per hop
constexpr double kRateBps = 43.8e6;  // MoDNN's WLAN throughput
constexpr double kLatencyS = 0.001;
constexpr double kFps = 20.0;  // one frame every 50 ms: the pipeline keeps up

struct Measure {
  double wall_s = 0.0;
  double executions = 0.0;
  double messages = 0.0;
  double sim_end_s = 0.0;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

coinfer::Platform platform() {
  coinfer::Platform p;
  p.name = "bench5";
  coinfer::Network wlan;
  wlan.name = "wlan";
  wlan.kind = coinfer::NetworkKind::Wifi;
  wlan.link.rate_bps = kRateBps;
  wlan.link.latency_s = kLatencyS;
  for (int i = 0; i < kDevices; ++i) {
    coinfer::Device d;
    d.name = "phone" + std::to_string(i);
    d.calibration.edit().power = {0.7, 3.5};
    p.devices.push_back(d);
    wlan.members.push_back(d.name);
  }
  p.networks.push_back(wlan);
  return p;
}

// Stage i computes on phone i and sends its output to phone i+1.
coinfer::Plan pipeline() {
  coinfer::Plan plan{"pipeline", "", {}};
  for (int i = 0; i < kDevices; ++i) {
    const auto dev = "phone" + std::to_string(i);
    std::vector<std::string> deps;
    if (i > 0) deps.push_back("x" + std::to_string(i - 1));
    plan.tasks.push_back(coinfer::compute_task("c" + std::to_string(i), dev, kStageS, deps));
    if (i + 1 < kDevices)
      plan.tasks.push_back(coinfer::transfer_task(
          "x" + std::to_string(i), dev, "phone" + std::to_string(i + 1), kBytes, {"c" + std::to_string(i)}));
  }
  return plan;
}

Measure run_coinfer(std::size_t frames) {
  const auto text = coinfer::run_in_child_process([&] {
    const auto p = platform();
    const auto plan = pipeline();
    const auto w = coinfer::stream_workload(kFps, frames, coinfer::DropPolicy::Queue);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = coinfer::simulate(p, plan, w);
    const double wall = seconds_since(t0);
    return Json{{"wall_s", wall},
                {"executions", r.executions},
                {"messages", r.messages},
                {"end_s", r.end_s},
                {"completed", r.completed_frames()}}
        .dump();
  });
  const Json j = Json::parse(text);
  if (j["completed"].get<std::size_t>() != frames)
    std::fprintf(stderr, "warning: not every frame completed\n");
  return {j["wall_s"].get<double>(), j["executions"].get<double>(), j["messages"].get<double>(),
          j["end_s"].get<double>()};
}

// The same work written directly against SimGrid: one actor per phone; phone 0 waits for each
// frame's release, every phone receives (but phone 0), executes, and sends on (but the last).
Measure run_bare(std::size_t frames) {
  const auto text = coinfer::run_in_child_process([&] {
    const auto t0 = std::chrono::steady_clock::now();
    const auto engine = coinfer::bench::make_bare_engine();
    auto* zone = sg4::create_full_zone("bare");
    std::vector<sg4::Host*> hosts;
    for (int i = 0; i < kDevices; ++i)
      hosts.push_back(zone->create_host("h" + std::to_string(i), 1e9)->seal());
    auto* link = zone->create_link("wlan", kRateBps / 8.0)->set_latency(kLatencyS)->seal();
    for (int i = 0; i < kDevices; ++i)
      for (int j = 0; j < kDevices; ++j)
        if (i != j)
          zone->add_route(hosts[i]->get_netpoint(), hosts[j]->get_netpoint(), nullptr, nullptr,
                          {sg4::LinkInRoute(link)}, false);
    zone->seal();
    static int token = 0;
    double executions = 0.0, messages = 0.0;
    for (int i = 0; i < kDevices; ++i) {
      sg4::Actor::create("a" + std::to_string(i), hosts[i], [i, frames, &executions, &messages] {
        auto* in = sg4::Mailbox::by_name("m" + std::to_string(i));
        auto* out = i + 1 < kDevices ? sg4::Mailbox::by_name("m" + std::to_string(i + 1)) : nullptr;
        if (i > 0) in->set_receiver(sg4::Actor::self());  // messages flow as soon as they are sent
        for (std::size_t k = 0; k < frames; ++k) {
          if (i == 0)
            sg4::this_actor::sleep_until(static_cast<double>(k) / kFps);
          else
            in->get<int>();
          sg4::this_actor::execute(kStageS * 1e9);
          executions += 1;
          if (out != nullptr) {
            out->put_init(&token, static_cast<std::uint64_t>(kBytes))->detach();
            messages += 1;
          }
        }
        if (i > 0) in->set_receiver(nullptr);
      });
    }
    engine->run();
    const double wall = seconds_since(t0);
    return Json{{"wall_s", wall},
                {"executions", executions},
                {"messages", messages},
                {"end_s", sg4::Engine::get_clock()}}
        .dump();
  });
  const Json j = Json::parse(text);
  return {j["wall_s"].get<double>(), j["executions"].get<double>(), j["messages"].get<double>(),
          j["end_s"].get<double>()};
}

Measure best_of(int repeats, Measure (*fn)(std::size_t), std::size_t frames) {
  Measure best = fn(frames);
  for (int r = 1; r < repeats; ++r) {
    const Measure m = fn(frames);
    if (m.wall_s < best.wall_s) best = m;
  }
  return best;
}

void print(const char* what, const Measure& m) {
  std::printf(
      "%-8s wall %8.3f s   executions %7.0f (%9.0f /s)   messages %7.0f (%9.0f /s)   simulated %.3f s\n",
      what, m.wall_s, m.executions, m.executions / m.wall_s, m.messages, m.messages / m.wall_s, m.sim_end_s);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t frames = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  std::printf("stream of %zu frames, %d-stage pipeline over %d phones on one WiFi cell (best of %d runs)\n",
              frames, kDevices, kDevices, repeats);
  const Measure bare = best_of(repeats, run_bare, frames);
  const Measure ours = best_of(repeats, run_coinfer, frames);
  print("bare", bare);
  print("coinfer", ours);
  const double ratio = ours.wall_s / bare.wall_s;
  std::printf("ratio coinfer / bare SimGrid wall time: %.2f (target <= 2)\n", ratio);
  return 0;
}
