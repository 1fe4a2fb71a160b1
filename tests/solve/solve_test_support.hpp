#pragma once
// Shared by the solver tests: run a registered solver the way `coinfer solve` does, and read the
// JSON path of the InputError a malformed problem raises.
#include <string>

#include "sim/core/error.hpp"
#include "sim/solve/solver.hpp"

namespace coinfer::testing {

/// Solves `problem` with the solver `name` that `register_fn(registry)` adds.
/// Example: `solve_with(register_split_dp_solvers, "split-dp", problem)`.
template <class RegisterFn>
Json solve_with(RegisterFn register_fn, const std::string& name, const Json& problem) {
  SolverRegistry registry("solver");
  register_fn(registry);
  return registry.create(name, Json::object())->solve(problem);
}

/// Runs `fn` and returns the path of the InputError it throws, or "<no error>".
template <class Fn>
std::string input_error_path(Fn fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.path();
  }
  return "<no error>";
}

}  // namespace coinfer::testing
