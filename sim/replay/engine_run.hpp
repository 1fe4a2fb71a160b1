#pragma once
/// Running SimGrid's engine with deadlocks reported as errors.
///
/// When every actor waits on an activity that can never complete, SimGrid detects a deadlock,
/// kills the actors (with an exception that is not a std::exception) and returns from run().
/// Unchecked, that reached a user as "unknown exception in the simulation process".
///
///     run_engine(engine, [&] { return fmt::format("{} activities pending", n); });
#include <functional>
#include <string>

namespace simgrid::s4u {
class Engine;
}

namespace coinfer::replay {

/// engine.run(); on a deadlock throws Error("the simulation deadlocked at t = <date> s: <pending()>;
/// this is a coinfer bug: please report it with the scenario and its seed").
void run_engine(simgrid::s4u::Engine& engine, const std::function<std::string()>& pending);

}  // namespace coinfer::replay
