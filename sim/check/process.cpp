#include "sim/check/process.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::check {
namespace {

// In the child after fork: only async-signal-safe calls until exec. On failure the errno goes
// to the parent through the close-on-exec pipe.
[[noreturn]] void exec_child(const std::vector<char*>& argv, const char* cwd, const char* out,
                             const char* err, int report_fd) {
  int failure = 0;
  const int in_fd = ::open("/dev/null", O_RDONLY);
  const int out_fd = ::open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int err_fd = ::open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in_fd < 0 || out_fd < 0 || err_fd < 0 || ::dup2(in_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 ||
      ::dup2(err_fd, 2) < 0 || ::chdir(cwd) != 0)
    failure = errno;
  if (failure == 0) {
    ::execvp(argv[0], argv.data());
    failure = errno;
  }
  [[maybe_unused]] const auto n = ::write(report_fd, &failure, sizeof failure);
  ::_exit(127);
}

}  // namespace

std::string ProcessResult::why() const {
  std::ifstream in(err_file);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  if (!last.empty()) return last;
  if (signal != 0) return fmt::format("killed by signal {}", signal);
  return fmt::format("exit code {}", exit_code);
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& cwd,
                          const std::string& log_prefix) {
  if (argv.empty()) throw Error("run_process: empty command");
  ProcessResult r;
  r.log_prefix = log_prefix;
  r.out_file = log_prefix + ".out";
  r.err_file = log_prefix + ".err";
  std::vector<std::string> args(argv);
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0)
    throw Error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  std::cout.flush();
  std::fflush(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(report[0]);
    ::close(report[1]);
    throw Error(fmt::format("cannot start '{}': {}", argv[0], std::strerror(errno)));
  }
  if (pid == 0) exec_child(cargv, cwd.c_str(), r.out_file.c_str(), r.err_file.c_str(), report[1]);
  ::close(report[1]);
  int status = 0;
  struct rusage usage {};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int failure = 0;
  const auto got = ::read(report[0], &failure, sizeof failure);
  ::close(report[0]);
  if (got == static_cast<ssize_t>(sizeof failure) && failure != 0)
    throw Error(fmt::format("cannot run '{}' in {}: {}", argv[0], cwd, std::strerror(failure)));
  r.cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
            1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

TempDir::TempDir(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw Error(fmt::format("cannot create a temporary folder {}: {}", pattern, std::strerror(errno)));
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string self_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

}  // namespace coinfer::check
