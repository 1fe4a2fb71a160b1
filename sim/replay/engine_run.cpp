#include "sim/replay/engine_run.hpp"

#include <simgrid/s4u.hpp>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::replay {

void run_engine(simgrid::s4u::Engine& engine, const std::function<std::string()>& pending) {
  bool deadlocked = false;
  double at_s = 0.0;
  simgrid::s4u::Engine::on_deadlock_cb([&deadlocked, &at_s] {
    deadlocked = true;
    at_s = simgrid::s4u::Engine::get_clock();
  });
  engine.run();
  if (deadlocked)
    throw Error(
        fmt::format("the simulation deadlocked at t = {} s: {}; this is a coinfer bug: please report "
                    "it with the scenario and its seed",
                    at_s, pending()));
}

}  // namespace coinfer::replay
