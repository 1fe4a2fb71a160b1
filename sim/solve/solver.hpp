#pragma once
/// A solver is the pure core of an algorithm: problem JSON in, solution JSON out, no I/O,
/// no SimGrid, no profiling. `coinfer solve NAME problem.json` looks it up by name.
/// A malformed problem throws `InputError` whose path points into the problem JSON.
#include "sim/core/json_access.hpp"
#include "sim/core/registry.hpp"

namespace coinfer {

class Solver {
 public:
  virtual ~Solver() = default;
  /// Maps a problem to its solution; throws `InputError` on a malformed problem.
  virtual Json solve(const Json& problem) const = 0;
};

using SolverRegistry = Registry<Solver>;

/// Wraps a plain function as a `Solver` factory for `SolverRegistry::add`.
template <class Fn>
SolverRegistry::Factory solver_factory(Fn fn) {
  struct FnSolver : Solver {
    explicit FnSolver(Fn f) : f_(std::move(f)) {}
    Json solve(const Json& problem) const override { return f_(problem); }
    Fn f_;
  };
  return [fn](const Json&) { return std::make_unique<FnSolver>(fn); };
}

}  // namespace coinfer
