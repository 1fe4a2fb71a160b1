// Populations at scale: N users, each a phone on its own LTE uplink and downlink to one server,
// each streaming F frames (upload 20 KB, 5 ms on the server, download 1 KB) at 1 fps, replayed by
// coinfer (simulate_population) against a bare SimGrid program doing the same executions and
// communications on the same platform shape (one actor per user, the server's slots a FIFO
// semaphore), both measured in this run, each in its own child process. The server has one slot
// per 2.5 users' worth of load (at least 8): half busy at any N, so its queue stays short and N
// changes only how many users there are. Every N replays as many frames as the largest N does
// with F frames per user (F x largest N / N per user), so that each time is taken over the same
// number of frames and none is a few milliseconds of a noisy machine. Each runs those frames and
// twice as many: the time per frame is the difference over the extra frames, so setup (building
// the platform, SimGrid's start, compiling the plans) is not in it. User i's first frame leaves at
// frac(i x 0.618...) s, the golden-ratio sequence: phases about as evenly spread as i / N, but no
// two users' events fall on the same instant (with i / N and a latency that is a multiple of 1 / N,
// many do, and one SimGrid round then serves several frames: the cost per frame falls with N for
// a reason a real population does not have). Prints, per N, that time per
// frame of each and their ratio; the peak memory per user of each beyond the 32-byte frame
// records, and of coinfer's what simulate_population itself grew beyond its inputs (the
// platform's devices and the users' plans, which the caller built: "engine"); and coinfer's wall
// time per frame against its own at the first N (flat: 1.00), and the same for its CPU time (user
// + system: what the process computed, without the time a virtual machine's host took the core
// away). "KB/added user" is what each user past the previous N added to coinfer's peak: its
// growth over the added users (the frame records, as many at every N, and the fixed cost of
// SimGrid and the libraries cancel out). Memory is the first run's.
// coinfer keeps each phone's own uplink and downlink outside SimGrid (replay/private_flows.hpp);
// `simgrid` as third argument keeps them in SimGrid (SimOptions::private_links_in_simgrid), as the
// bare program does.
//
// With `--repeat R`, each of the four runs per N is made R times and its fastest kept (wall and CPU
// time each), in R rounds over every N (a slow spell of the machine then falls on every N alike).
// With R of 2 or more it then prints each round's coinfer time per frame at every N, from that
// round's own runs, and its largest N's over its first N's: their spread is what the machine's
// state (other tenants' use of the shared cache, at 10,000 users) does to the time.
// `--coinfer-only` leaves out the bare program. Under valgrind's callgrind, each coinfer run counts only
// `simulate_population` and dumps its count labelled `coinfer <N> users <frames> frames per user`
// (bench/population_instructions.sh prints instructions per frame from them: a count the machine's noise does
// not move).
//
//     build/bench/population_bench [users,users,...] [frames per user at the largest N] [simgrid]
//                                  [--repeat R] [--coinfer-only]
//     # default 10,100,1000 20, R = 1
#include <xbt/log.h>
#include <simgrid/s4u.hpp>

#include <sys/resource.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else  // without valgrind's headers the counts are not labelled; the benchmark runs the same
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(label) (void)(label)
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bare_engine.hpp"
#include "sim/core/json_access.hpp"
#include "sim/replay/simulate.hpp"

namespace {

namespace sg4 = simgrid::s4u;
using coinfer::Json;

constexpr double kUpBps = 5.85e6, kDownBps = 13.76e6, kLatencyS = 0.035;
constexpr double kUpBytes = 20000.0, kDownBytes = 1000.0, kServerS = 0.005;
constexpr double kFps = 1.0;
constexpr double kServerLoad = 0.5;  // the server's mean busy fraction

int server_slots(int users) {
  return std::max(8, static_cast<int>(std::ceil(users * kFps * kServerS / kServerLoad)));
}

struct Measure {
  double wall_s = 0.0;
  double cpu_s = 0.0;  ///< user + system CPU time of the run
  double frames = 0.0;
  double peak_kb = 0.0;    ///< peak resident memory grown during the run
  double engine_kb = 0.0;  ///< of it, grown during simulate_population (beyond its inputs)
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double resident_kb() {
  std::ifstream statm("/proc/self/statm");
  double size = 0, resident = 0;
  statm >> size >> resident;
  return resident * 4.0;
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

double peak_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss);
}

// User i releases frame k at (k + frac(i g)) / fps, g the golden ratio's conjugate: the users
// spread over a period, no two at the same instant.
double release_s(int user, int frame) {
  constexpr double kGolden = 0.6180339887498949;
  return (frame + std::fmod(user * kGolden, 1.0)) / kFps;
}

std::string phone(int i) { return "p" + std::to_string(i); }

Measure run_coinfer(int users, int frames, bool links_in_simgrid) {
  const auto text = coinfer::run_in_child_process([&] {
    const double start_kb = resident_kb();
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    coinfer::Platform p;
    p.name = "population";
    coinfer::Network cell;
    cell.name = "cell";
    cell.kind = coinfer::NetworkKind::Lte;
    cell.base = "s";
    cell.uplink.rate_bps = kUpBps;
    cell.uplink.latency_s = kLatencyS;
    cell.downlink.rate_bps = kDownBps;
    cell.downlink.latency_s = kLatencyS;
    p.devices.reserve(static_cast<std::size_t>(users) + 1);
    cell.members.reserve(static_cast<std::size_t>(users));
    coinfer::Device handset;  // every phone a copy: they share one calibration
    handset.calibration.edit().power = {0.7, 3.5};
    handset.calibration.edit().radio["4g"] = {438.39, 1288.04, 51.97,
                                              1288.04};  // JointDNN 4G, as jetson_tx2.json
    for (int i = 0; i < users; ++i) {
      coinfer::Device d = handset;
      d.name = phone(i);
      p.devices.push_back(d);
      cell.members.push_back(d.name);
    }
    coinfer::Device server;
    server.name = "s";
    server.slots = static_cast<std::size_t>(server_slots(users));
    server.calibration.edit().power = {50, 200};
    p.devices.push_back(server);
    p.networks.push_back(std::move(cell));
    // One plan for every phone, as a scenario's group of identical phones shares it
    // (SharedPlans): written for a stand-in, each user runs it on its own phone.
    const auto plans = std::make_shared<const coinfer::SharedPlans>(coinfer::SharedPlans{
        coinfer::kUserDevice,
        {coinfer::Plan{"remote",
                       "",
                       {coinfer::transfer_task("up", coinfer::kUserDevice, "s", kUpBytes, {}),
                        coinfer::compute_task("infer", "s", kServerS, {"up"}),
                        coinfer::transfer_task("down", "s", coinfer::kUserDevice, kDownBytes, {"infer"})}}}});
    std::vector<coinfer::UserSource> sources;
    sources.reserve(static_cast<std::size_t>(users));
    for (int i = 0; i < users; ++i) {
      auto w = coinfer::stream_workload(kFps, static_cast<std::size_t>(frames), coinfer::DropPolicy::Queue);
      w.start_s = release_s(i, 0);
      sources.push_back({phone(i), phone(i), {}, w, nullptr, plans});
    }
    coinfer::SimOptions options;
    options.private_links_in_simgrid = links_in_simgrid;
    const double inputs_kb = resident_kb();
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
    const auto r = coinfer::simulate_population(p, sources, options);
    const std::string label =
        "coinfer " + std::to_string(users) + " users " + std::to_string(frames) + " frames per user";
    CALLGRIND_DUMP_STATS_AT(label.c_str());
    CALLGRIND_STOP_INSTRUMENTATION;
    return Json{{"wall_s", seconds_since(t0)},
                {"cpu_s", cpu_seconds() - cpu0},
                {"frames", r.completed_frames()},
                {"peak_kb", peak_kb() - start_kb},
                {"engine_kb", peak_kb() - inputs_kb}}
        .dump();
  });
  const Json j = Json::parse(text);
  return {j["wall_s"].get<double>(), j["cpu_s"].get<double>(), j["frames"].get<double>(),
          j["peak_kb"].get<double>(), j["engine_kb"].get<double>()};
}

// The same work against SimGrid directly: a star zone like coinfer's, one actor per user that
// sends each frame's upload, executes on the server, and receives the download, frame by frame.
Measure run_bare(int users, int frames) {
  const auto text = coinfer::run_in_child_process([&] {
    const double start_kb = resident_kb();
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    const auto engine = coinfer::bench::make_bare_engine();
    engine->set_config("network/TCP-gamma:1e18");
    auto* zone = sg4::create_star_zone("cell");
    auto* server = zone->create_host("s", 1e9)->set_core_count(server_slots(users))->seal();
    const auto slots = sg4::Semaphore::create(static_cast<unsigned>(server_slots(users)));
    zone->add_route(server->get_netpoint(), nullptr, nullptr, nullptr, {}, false);
    zone->add_route(nullptr, server->get_netpoint(), nullptr, nullptr, {}, false);
    std::vector<sg4::Host*> phones;
    for (int i = 0; i < users; ++i) {
      auto* h = zone->create_host(phone(i), 1e9)->seal();
      auto* up = zone->create_link(phone(i) + "/up", kUpBps / 8.0)->set_latency(kLatencyS)->seal();
      auto* down = zone->create_link(phone(i) + "/down", kDownBps / 8.0)->set_latency(kLatencyS)->seal();
      zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(up)}, false);
      zone->add_route(nullptr, h->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(down)}, false);
      phones.push_back(h);
    }
    zone->seal();
    double done = 0;
    for (int i = 0; i < users; ++i) {
      sg4::Actor::create(phone(i), phones[static_cast<std::size_t>(i)], [&, i] {
        sg4::Host* self = phones[static_cast<std::size_t>(i)];
        for (int k = 0; k < frames; ++k) {
          sg4::this_actor::sleep_until(release_s(i, k));
          sg4::Comm::sendto(self, server, static_cast<std::uint64_t>(kUpBytes));
          slots->acquire();
          sg4::Exec::init()->set_flops_amount(kServerS * 1e9)->set_host(server)->wait();
          slots->release();
          sg4::Comm::sendto(server, self, static_cast<std::uint64_t>(kDownBytes));
          done += 1;
        }
      });
    }
    engine->run();
    return Json{{"wall_s", seconds_since(t0)},
                {"cpu_s", cpu_seconds() - cpu0},
                {"frames", done},
                {"peak_kb", peak_kb() - start_kb}}
        .dump();
  });
  const Json j = Json::parse(text);
  return {j["wall_s"].get<double>(), j["cpu_s"].get<double>(), j["frames"].get<double>(),
          j["peak_kb"].get<double>(), 0.0};
}

std::string fmt_kb(double kb) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", kb);
  return text;
}

std::vector<int> parse_users(const char* text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::atoi(item.c_str()));
  return out;
}

// Each round's coinfer time per frame at every N, its largest N's over its first N's, and that
// ratio's least, median and most over the rounds: the table's fastest runs may come from different
// rounds, and the spread shows what the machine's state did to the largest N's time.
void print_rounds(const std::vector<int>& sizes, const std::vector<std::vector<double>>& round_us) {
  std::printf("\nper round, coinfer us/frame from that round's runs:\nround");
  for (int users : sizes) std::printf("  %7d", users);
  std::printf("   last N vs first N\n");
  std::vector<double> ratios;
  for (std::size_t round = 0; round < round_us.size(); ++round) {
    std::printf("%5zu", round + 1);
    for (double us : round_us[round]) std::printf("  %7.1f", us);
    ratios.push_back(round_us[round].back() / round_us[round].front());
    std::printf("   %17.2f\n", ratios.back());
  }
  std::sort(ratios.begin(), ratios.end());
  const std::size_t n = ratios.size();
  const double median = n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0;
  std::printf("last N vs first N over %zu rounds: least %.2f, median %.2f, most %.2f\n", n, ratios.front(),
              median, ratios.back());
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> sizes = parse_users(argc > 1 ? argv[1] : "10,100,1000");
  const int frames_at_most = argc > 2 ? std::atoi(argv[2]) : 20;
  bool links_in_simgrid = false, with_bare = true;
  int repeats = 1;
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "simgrid") {
      links_in_simgrid = true;
    } else if (arg == "--repeat" && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--coinfer-only") {
      with_bare = false;
    } else {
      std::fprintf(
          stderr,
          "population_bench: unknown argument '%s' (expected simgrid, --repeat R or --coinfer-only)\n",
          arg.c_str());
      return 2;
    }
  }
  // Every run of every N is made once per round, `repeats` rounds, and the fastest of each kept:
  // what the machine's noise (other tenants, a virtual machine's host) added least to. Rounds go
  // over every N in turn, so a slow spell of the machine falls on all of them, not on one N's runs.
  // Memory is the first round's.
  const int most_users = *std::max_element(sizes.begin(), sizes.end());
  struct Runs {
    int users = 0;
    int frames = 0;
    Measure ours, ours2, bare, bare2;
  };
  std::vector<Runs> runs;
  for (int users : sizes)
    runs.push_back({users,
                    static_cast<int>(static_cast<long long>(frames_at_most) * most_users / users),
                    {},
                    {},
                    {},
                    {}});
  const auto keep_fastest = [](Measure& best, const Measure& again, bool first) {
    if (first) {
      best = again;
      return;
    }
    best.wall_s = std::min(best.wall_s, again.wall_s);
    best.cpu_s = std::min(best.cpu_s, again.cpu_s);
  };
  const auto per_frame_us = [](double a_s, double b_s, const Measure& a, const Measure& b) {
    return (b_s - a_s) / (b.frames - a.frames) * 1e6;
  };
  // Per round, coinfer's wall time per frame at each N from that round's own two runs.
  std::vector<std::vector<double>> round_us(repeats);
  for (int round = 0; round < repeats; ++round) {
    for (auto& r : runs) {
      const bool first = round == 0;
      const Measure ours = run_coinfer(r.users, r.frames, links_in_simgrid);
      const Measure ours2 = run_coinfer(r.users, 2 * r.frames, links_in_simgrid);
      round_us[round].push_back(per_frame_us(ours.wall_s, ours2.wall_s, ours, ours2));
      keep_fastest(r.ours, ours, first);
      keep_fastest(r.ours2, ours2, first);
      if (with_bare) {
        keep_fastest(r.bare, run_bare(r.users, r.frames), first);
        keep_fastest(r.bare2, run_bare(r.users, 2 * r.frames), first);
      }
    }
  }
  std::printf(
      "users  frames   coinfer us/frame   bare us/frame   ratio   coinfer KB/user   engine KB/user   "
      "bare KB/user   coinfer KB/added user   coinfer us/frame vs first N   coinfer CPU us/frame   CPU vs "
      "first "
      "N\n");
  double first_us = 0.0, first_cpu_us = 0.0;
  double last_kb = 0.0;  // coinfer's peak beyond the frame records at the previous N
  int last_users = 0;
  for (auto& r : runs) {
    const int users = r.users;
    const Measure& ours = r.ours;
    const Measure& ours2 = r.ours2;
    if (!with_bare) {
      r.bare.wall_s = r.bare.peak_kb = r.bare2.wall_s = r.bare2.peak_kb = std::nan("");
      r.bare.frames = ours.frames;
      r.bare2.frames = ours2.frames;
    }
    const Measure& bare = r.bare;
    const Measure& bare2 = r.bare2;
    if (ours.frames != bare.frames || ours2.frames != bare2.frames)
      std::fprintf(stderr, "warning: %d users: frame counts differ\n", users);
    const double ours_us = per_frame_us(ours.wall_s, ours2.wall_s, ours, ours2);
    const double bare_us = per_frame_us(bare.wall_s, bare2.wall_s, bare, bare2);
    const double ours_cpu_us = per_frame_us(ours.cpu_s, ours2.cpu_s, ours, ours2);
    const double records_kb = ours.frames * 32.0 / 1024.0;
    const double ours_kb = (ours.peak_kb - records_kb) / users, bare_kb = bare.peak_kb / users;
    const double engine_kb = (ours.engine_kb - records_kb) / users;
    if (first_us == 0.0) first_us = ours_us, first_cpu_us = ours_cpu_us;
    // What each user past the previous N added: the peak's growth over the added users (every N
    // replays as many frames, so the records cancel out, and so does the fixed cost).
    const double peak_kb = ours.peak_kb - records_kb;
    std::string added = "-";
    if (last_users > 0 && users > last_users)
      added = fmt_kb((peak_kb - last_kb) / static_cast<double>(users - last_users));
    last_kb = peak_kb, last_users = users;
    // Without the bare program (--coinfer-only) its columns say "-".
    const auto bare_column = [&](const char* format, double value) {
      char text[32];
      std::snprintf(text, sizeof text, format, value);
      return with_bare ? std::string(text) : std::string("-");
    };
    std::printf(
        "%5d  %6.0f   %16.1f   %13s   %5s   %15.2f   %14.2f   %12s   %21s   %27.2f   %20.1f   %14.2f\n",
        users, ours.frames, ours_us, bare_column("%.1f", bare_us).c_str(),
        bare_column("%.2f", ours_us / bare_us).c_str(), ours_kb, engine_kb,
        bare_column("%.2f", bare_kb).c_str(), added.c_str(), ours_us / first_us, ours_cpu_us,
        ours_cpu_us / first_cpu_us);
  }
  if (repeats > 1) print_rounds(sizes, round_us);
  return 0;
}
