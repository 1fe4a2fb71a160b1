// Whole-process measurements for the benchmarks that run the coinfer binary: wall time from fork to
// exit, CPU time (user + system) and peak memory (ru_maxrss) from wait4. On a shared machine the
// wall time also counts waiting for a core; the CPU time counts only the process's own work.
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace coinfer::bench {

struct Measure {
  double wall_s = 0.0;
  double cpu_s = 0.0;  ///< user + system time of the process: what it cost, whatever else ran
  double peak_mib = 0.0;
};

// Runs argv with stdout and stderr on /dev/null; when it fails, prints `<bench>: '<command>' failed`
// and exits the benchmark.
inline Measure run_process(const std::vector<std::string>& argv, const char* bench) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string cmd;
    for (const auto& a : argv) cmd += a + " ";
    std::fprintf(stderr, "%s: '%s' failed\n", bench, cmd.c_str());
    std::exit(1);
  }
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  return {wall, seconds(usage.ru_utime) + seconds(usage.ru_stime),
          static_cast<double>(usage.ru_maxrss) / 1024.0};  // ru_maxrss: KiB
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace coinfer::bench
