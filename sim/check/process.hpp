#pragma once
/// Runs a program without a shell and times it, for `coinfer check`: the scenarios and sweeps it
/// runs through this binary and the commands of its timing checks.
///
///     const auto r = run_process({"sleep", "0.1"}, ".", "/tmp/x");   // r.wall_s close to 0.1
///     TempDir tmp("coinfer-check");                                    // removed when tmp goes
#include <string>
#include <vector>

namespace coinfer::check {

struct ProcessResult {
  int exit_code = -1;      ///< -1 when killed by a signal
  int signal = 0;          ///< the signal that killed it, else 0
  double wall_s = 0.0;     ///< from just before the fork to the exit
  double cpu_s = 0.0;      ///< user + system time of the process and the children it waited for
  std::string log_prefix;  ///< `log_prefix` as given to run_process
  std::string out_file;    ///< its stdout, as a file
  std::string err_file;    ///< its stderr, as a file
  bool ok() const { return exit_code == 0; }
  /// The last non-empty line of stderr, or how it ended ("killed by signal 9", "exit code 3").
  std::string why() const;
};

/// Runs `argv` (argv[0] looked up in PATH when it holds no '/', else relative to `cwd`) in `cwd`
/// with stdin from /dev/null and stdout / stderr written to `log_prefix`.out / .err.
/// Throws `Error("cannot run 'prog': No such file or directory")` when it cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& cwd,
                          const std::string& log_prefix);

/// A fresh folder `$TMPDIR/<prefix>-XXXXXX`, removed with everything in it on destruction.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// The absolute path of this executable (`/proc/self/exe`).
std::string self_executable();

}  // namespace coinfer::check
