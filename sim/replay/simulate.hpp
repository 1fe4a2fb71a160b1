#pragma once
/// Replays plans over a platform in SimGrid.
///
/// SimGrid settings (see README "Simulation"): network/model:CM02, network/crosstraffic:0 and
/// an unbounded TCP window (network/TCP-gamma:1e18), so a transfer of S bytes alone on a
/// route of latency L and smallest rate R takes exactly L + 8 S / R, while concurrent
/// transfers share links max-min fairly (SimGrid's LMM); raw contexts. Compute tasks are
/// SimGrid executions of duration_s * host speed flops on the device's host, one at a time
/// per device, ready tasks served by (frame, plan order). Radio wake-up and serialized radios
/// are modelled by the replay (SimGrid has neither); time-varying rates are SimGrid bandwidth
/// profiles (absolute bytes/s).
///
/// SimGrid cannot run two simulations in one process (the clock of a second Engine is not
/// reset): `simulate` throws `Error` when called twice in one process; use
/// `simulate_in_child` (or `run_in_child_process`) to run several.
///
///     Platform platform = load_platform_file("platforms/wlan4.yaml");
///     SimulationResult r = simulate_in_child(platform, {plan}, stream_workload(10, 100), {});
///     r.frames[3].end_s;  r.devices[0].energy_j;
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/plan/plan.hpp"
#include "sim/platform/platform.hpp"
#include "sim/replay/simulation_result.hpp"
#include "sim/trace/trace_writer.hpp"
#include "sim/workload/scheduler.hpp"
#include "sim/workload/workload.hpp"

namespace coinfer {

struct SimOptions {
  std::uint64_t seed = 0;  ///< seeds every random bandwidth draw
  /// Keep frame 0's trace events in SimulationResult::trace (stage_metrics reads them): memory
  /// bounded by the plan, not by the run.
  bool record_trace = false;
  /// Streams every event and counter of the run into this writer as it happens (null: none);
  /// simulate() finishes it when the run succeeded and hands it back in SimulationResult.
  /// With simulate_in_child, give a writer with a path: it is finished (published) in the child.
  std::shared_ptr<TraceWriter> trace_writer;
  /// Radios start asleep (a phone idle before the request): the first transfer of each radio
  /// pays its wake-up. True: they start awake at t = 0 (and sleep after the timeout).
  bool radios_start_awake = false;
  /// A device's own access links (an uplink or downlink no plan's route shares with another link)
  /// carry their transfers outside SimGrid, shared equally as SimGrid's model shares them
  /// (replay/private_flows.hpp), so a population of phones costs SimGrid no host or link each.
  /// True: every link is a SimGrid link (the same times within rounding; the tests compare them).
  bool private_links_in_simgrid = false;
};

/// Simulates `workload` over `platform` with plan `variants` (variant 0 unless `scheduler`
/// chooses otherwise; null scheduler = NoopScheduler). Validates the plans first (InputError);
/// throws Error when SimGrid already ran in this process.
SimulationResult simulate(const Platform& platform, const std::vector<Plan>& variants,
                          const Workload& workload, const SimOptions& options = {},
                          Scheduler* scheduler = nullptr);
/// One plan. Example: `simulate(platform, plan, single_workload())`.
SimulationResult simulate(const Platform& platform, const Plan& plan, const Workload& workload,
                          const SimOptions& options = {});
/// One user of a population: the device its frames start on, its plan variants (its own, or
/// shared with other users), its own workload and its own scheduler (null: every frame runs
/// variant 0).
struct UserSource {
  std::string name;            ///< "phones/3": group and index
  std::string device;          ///< the device its frames start on
  std::vector<Plan> variants;  ///< its own plan variants, variant 0 first; empty with `shared`
  Workload workload;
  /// Not owned; it must outlive the run. It sees the user's frames as frames 0, 1, ... and the
  /// user's variants as 0, 1, ... (SchedulerView::frames holds the user's records only), and
  /// measures only the transfers the user's device sent (SchedulerView::measured_links).
  Scheduler* scheduler = nullptr;
  /// Plans shared with other users, run with `device` in place of their stand-in; null: `variants`.
  /// Example: `auto plans = std::make_shared<const SharedPlans>(SharedPlans{"phone", {plan}});`
  /// then `UserSource{"u7", "p7", {}, workload, nullptr, plans}` for each user.
  std::shared_ptr<const SharedPlans> shared{};

  /// The plan variants it runs: the shared ones, or its own.
  const std::vector<Plan>& plans() const { return shared ? shared->variants : variants; }
};

/// Simulates many users' streams at once on one platform: each user's frames run its own plan
/// through its own first-stage gate and queue (Workload's policy, deadline, max_in_flight), while
/// devices and links are shared: a device's queue serves tasks by their frame's release time
/// (FIFO across users), SimGrid shares links max-min fairly. SimulationResult::frames holds user
/// 0's frames, then user 1's, ...; SimulationResult::users says which are whose. One user gives
/// the same frames, devices and links as `simulate` with its plans and workload.
SimulationResult simulate_population(const Platform& platform, const std::vector<UserSource>& users,
                                     const SimOptions& options = {});
SimulationResult simulate_population_in_child(const Platform& platform, const std::vector<UserSource>& users,
                                              const SimOptions& options = {});

/// `simulate` in a forked child process; the result comes back as JSON. InputError and Error
/// thrown in the child are rethrown here; a crash of the child becomes an Error.
SimulationResult simulate_in_child(const Platform& platform, const std::vector<Plan>& variants,
                                   const Workload& workload, const SimOptions& options = {},
                                   Scheduler* scheduler = nullptr);

/// Runs `fn` in a forked child process and returns the string it returned. Exceptions thrown
/// by `fn` come back (InputError keeps its file/path/message; anything else becomes Error);
/// a child killed by a signal or exiting without an answer becomes Error. Stdout/stderr are
/// flushed before forking. Example: `auto text = run_in_child_process([] { return run(); });`
std::string run_in_child_process(const std::function<std::string()>& fn);

}  // namespace coinfer
