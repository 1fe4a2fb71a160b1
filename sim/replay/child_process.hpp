#pragma once
/// Forking a child that must not outlive its parent (a simulation run, a sweep's run).
///
///     const pid_t pid = fork_bound_to_parent("the run's process");
///     if (pid == 0) { ...; ::_exit(0); }  // the child
#include <sys/types.h>

#include <string_view>

namespace coinfer {

/// fork() after flushing stdio. The child gets SIGKILL when its parent dies (PR_SET_PDEATHSIG),
/// and exits at once if the parent died before that was set, so a killed `coinfer run` or sweep
/// leaves no simulation running. Returns fork()'s result (0 in the child); throws Error naming
/// `what` ("cannot fork <what>: <reason>") when fork fails.
pid_t fork_bound_to_parent(std::string_view what);

}  // namespace coinfer
