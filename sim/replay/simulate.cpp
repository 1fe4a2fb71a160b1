#include "sim/replay/simulate.hpp"

#include <malloc.h>

#include <functional>
#include <unordered_map>

#include <xbt/log.h>
#include <simgrid/s4u.hpp>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/sanitizer.hpp"
#include "sim/plan/critical_path.hpp"
#include "sim/replay/dispatcher.hpp"
#include "sim/replay/engine_run.hpp"
#include "sim/replay/tally.hpp"

namespace coinfer {
namespace {

namespace sg4 = simgrid::s4u;

// AddressSanitizer cannot follow raw context switches: SimGrid's unwinding of finished actors
// prints "ASan is ignoring requested __asan_handle_no_return" and false reports may follow
// (google/sanitizers#189). Under ASan each actor gets a thread instead (chosen on SimGrid's command
// line: the factory is fixed when the engine starts); the schedule, and so every result, is the same.
#ifdef COINFER_ASAN
constexpr const char* kContexts = "contexts/factory:thread";
#else
constexpr const char* kContexts = "contexts/factory:raw";
#endif

void check_workload(const Workload& w) {
  if (w.kind == WorkloadKind::Stream && !(w.rate_fps > 0.0))
    throw InputError("", "workload.rate_fps", fmt::format("expected a rate > 0, got {}", w.rate_fps));
  if (!(w.deadline_s > 0.0)) throw InputError("", "workload.deadline_s", "expected a deadline > 0");
  if (!(w.start_s >= 0.0) || !std::isfinite(w.start_s))
    throw InputError("", "workload.start_s", "expected a finite start >= 0");
  if (w.frame_count() == 0) throw InputError("", "workload", "the workload releases no frame");
}

// CM02 without cross traffic and without a TCP window bound: a lone transfer of S bytes over a
// route of latency L and smallest rate R takes exactly L + 8 S / R.
void configure(sg4::Engine& engine) {
  xbt_log_control_set("root.thresh:critical");
  engine.set_config("network/model:CM02");
  engine.set_config("network/crosstraffic:0");
  engine.set_config("network/TCP-gamma:1e18");  // contexts/factory: kContexts, on the command line
}

bool& simgrid_used() {
  static bool used = false;
  return used;
}

}  // namespace

namespace {

/// From this many users on, run_replay gives the replay's freed memory back (malloc_trim).
constexpr std::size_t kTrimUsers = 1000;

// The replay itself; its state (SimGrid's included) is gone when it returns.
replay::Tally replay_tally(const Topology& topology, const std::vector<CompiledPlan>& plans,
                           std::vector<replay::ReplayUser> users, const SimOptions& options,
                           SimulationResult& result) {
  char name[] = "coinfer";
  char quiet[] = "--log=root.thresh:critical";
  std::string contexts = std::string("--cfg=") + kContexts;
  char* argv[] = {name, quiet, contexts.data(), nullptr};
  int argc = 3;
  sg4::Engine engine(&argc, argv);
  configure(engine);
  std::vector<char> private_links;
  if (!options.private_links_in_simgrid) private_links = replay::private_links(topology, plans);
  const auto sg = replay::build_simgrid_platform(topology, options.seed, private_links);
  replay::Dispatcher dispatcher({&topology, &plans, std::move(users), &options, private_links}, sg, result);
  sg4::Actor::create("dispatcher", sg.dispatcher, [&dispatcher] { dispatcher(); });
  replay::run_engine(engine, [&dispatcher] {
    return fmt::format("{} transfer or compute activities were still pending",
                       dispatcher.pending_activities());
  });
  dispatcher.rethrow_if_failed();
  return dispatcher.finish(sg4::Engine::get_clock());
}

// Every run: the plans compiled once, one ReplayUser per stream of frames. The compiled plans are
// freed before the devices and links are named.
SimulationResult run_replay(const Topology& topology, std::vector<CompiledPlan> plans,
                            std::vector<replay::ReplayUser> users, const SimOptions& options) {
  if (simgrid_used() || sg4::Engine::is_initialized())
    throw Error(
        "SimGrid already ran a simulation in this process; use simulate_in_child or run_in_child_process");
  simgrid_used() = true;

  SimulationResult result;
  result.seed = options.seed;
  // The first user's variants: a single source's, or a population's first user's (the others'
  // would cost a critical path and 8 bytes per user for a figure no result reads).
  const auto& first = users.front();
  for (std::size_t v = first.first_variant; v < first.first_variant + first.variants; ++v)
    result.analytic_latency_s.push_back(analytic_critical_path(plans[v], topology).latency_s);
  const bool many_users = users.size() >= kTrimUsers;
  replay::Tally tally = replay_tally(topology, plans, std::move(users), options, result);
  plans = {};
  // A large population's freed replay memory goes back to the system before the results are
  // named: glibc keeps freed small blocks (the per-user records, SimGrid's) resident, and the names
  // and counts of 10,000 devices and 20,000 links would add to them (the run's peak was there).
  // A smaller run frees too little for the walk of the free lists to be worth it.
  if (many_users) malloc_trim(0);
  replay::write_stats(std::move(tally), topology, result);
  result.trace_writer = options.trace_writer;
  return result;
}

}  // namespace

SimulationResult simulate(const Platform& platform, const std::vector<Plan>& variants,
                          const Workload& workload, const SimOptions& options, Scheduler* scheduler) {
  if (variants.empty()) throw InputError("", "plan", "no plan to simulate");
  check_workload(workload);
  const Topology topology(platform);
  std::vector<CompiledPlan> plans;
  for (const auto& v : variants) plans.push_back(compile_plan(v, topology));
  const std::size_t variant_count = plans.size();
  return run_replay(topology, std::move(plans), {{0, variant_count, &workload, scheduler}}, options);
}

namespace {

// The user's device in place of its shared plans' stand-in.
StandIn stand_in_for(const UserSource& u, const Topology& topology) {
  const auto device = topology.device_index_or_null(u.device);
  if (!device)
    throw InputError("", "users",
                     fmt::format("user '{}' runs on '{}', which is no device of platform '{}'", u.name,
                                 u.device, topology.platform().name));
  return {u.shared->stand_in, *device};
}

}  // namespace

SimulationResult simulate_population(const Platform& platform, const std::vector<UserSource>& users,
                                     const SimOptions& options) {
  if (users.empty()) throw InputError("", "users", "no user to simulate");
  const Topology topology(platform);
  std::vector<CompiledPlan> plans;
  std::vector<replay::ReplayUser> streams;
  std::size_t variants = 0;
  for (const auto& u : users) variants += u.plans().size();
  plans.reserve(variants);
  streams.reserve(users.size());
  // A shared plan's first compilation, whose shape the other users' compilations share.
  std::unordered_map<const Plan*, std::size_t> first_compiled;
  for (const auto& u : users) {
    if (u.shared && !u.variants.empty())
      throw InputError("", "users", fmt::format("user '{}' has plans of its own and shared ones", u.name));
    const auto& own = u.plans();
    if (own.empty()) throw InputError("", "users", fmt::format("user '{}' has no plan", u.name));
    check_workload(u.workload);
    streams.push_back({plans.size(), own.size(), &u.workload, u.scheduler});
    const StandIn stand_in = u.shared ? stand_in_for(u, topology) : StandIn{};
    for (const auto& v : own) {
      plans.push_back(compile_plan(v, topology, stand_in));
      if (!u.shared) continue;
      const auto [first, added] = first_compiled.emplace(&v, plans.size() - 1);
      if (!added) plans.back().share_shape(plans[first->second]);
    }
  }
  first_compiled = {};
  SimulationResult result = run_replay(topology, std::move(plans), std::move(streams), options);
  // Named after the run, as the devices and links are (replay/tally.hpp).
  result.users.reserve(users.size());
  std::size_t first_frame = 0;
  for (const auto& u : users) {
    const std::size_t frames = u.workload.frame_count();
    result.users.push_back({u.name, u.device, first_frame, frames});
    first_frame += frames;
  }
  return result;
}

SimulationResult simulate(const Platform& platform, const Plan& plan, const Workload& workload,
                          const SimOptions& options) {
  return simulate(platform, std::vector<Plan>{plan}, workload, options, nullptr);
}

namespace {

// A simulation in a forked child process (SimGrid runs once per process); its result comes back
// as JSON.
SimulationResult in_child(const std::function<SimulationResult()>& run) {
  const auto text = run_in_child_process([&] { return simulation_result_to_json(run()).dump(); });
  return simulation_result_from_json(Json::parse(text));
}

}  // namespace

SimulationResult simulate_in_child(const Platform& platform, const std::vector<Plan>& variants,
                                   const Workload& workload, const SimOptions& options,
                                   Scheduler* scheduler) {
  return in_child([&] { return simulate(platform, variants, workload, options, scheduler); });
}

SimulationResult simulate_population_in_child(const Platform& platform, const std::vector<UserSource>& users,
                                              const SimOptions& options) {
  return in_child([&] { return simulate_population(platform, users, options); });
}

}  // namespace coinfer
