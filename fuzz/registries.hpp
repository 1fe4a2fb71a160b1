#pragma once
/// The built-in registries (cli/builtin_registries.cpp), built once per fuzz process.
#include "cli/builtin_registries.hpp"

namespace coinfer::fuzz {

inline const PartitionerRegistry& partitioners() {
  static const PartitionerRegistry registry = cli::builtin_partitioners();
  return registry;
}
inline const SchedulerRegistry& schedulers() {
  static const SchedulerRegistry registry = cli::builtin_schedulers();
  return registry;
}
inline const SolverRegistry& solvers() {
  static const SolverRegistry registry = cli::builtin_solvers();
  return registry;
}

}  // namespace coinfer::fuzz
