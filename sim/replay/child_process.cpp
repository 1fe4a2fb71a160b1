#include "sim/replay/child_process.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/json_access.hpp"
#include "sim/replay/simulate.hpp"

namespace coinfer {
namespace {

// The child answers with one tag byte and a body: 'R' + result, 'I' + InputError as JSON,
// 'E' + message.
void write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const auto n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string out;
  char buffer[65536];
  for (;;) {
    const auto n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buffer, static_cast<std::size_t>(n));
  }
  return out;
}

[[noreturn]] void child_main(int fd, const std::function<std::string()>& fn) {
  std::string answer;
  try {
    answer = "R" + fn();
  } catch (const InputError& e) {
    answer = "I" + Json{{"file", e.file()}, {"path", e.path()}, {"message", e.message()}}.dump();
  } catch (const std::exception& e) {
    answer = std::string("E") + e.what();
  } catch (...) {
    answer = "Eunknown exception in the simulation process";
  }
  write_all(fd, answer);
  ::close(fd);
  std::fflush(nullptr);
  ::_exit(0);  // no static destructors: SimGrid's state belongs to this process only
}

}  // namespace

pid_t fork_bound_to_parent(std::string_view what) {
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(fmt::format("cannot fork {}: {}", what, std::strerror(errno)));
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
  }
  return pid;
}

std::string run_in_child_process(const std::function<std::string()>& fn) {
  int fds[2];
  if (::pipe(fds) != 0) throw Error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  pid_t pid = 0;
  try {
    pid = fork_bound_to_parent("a simulation process");
  } catch (const Error&) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_main(fds[1], fn);
  }
  ::close(fds[1]);
  const std::string answer = read_all(fds[0]);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    throw Error(fmt::format("the simulation process was killed by signal {} ({})", WTERMSIG(status),
                            strsignal(WTERMSIG(status))));
  if (answer.empty()) throw Error("the simulation process exited without an answer");
  const std::string body = answer.substr(1);
  if (answer[0] == 'R') return body;
  if (answer[0] == 'I') {
    const Json e = Json::parse(body);
    throw InputError(e.at("file").get<std::string>(), e.at("path").get<std::string>(),
                     e.at("message").get<std::string>());
  }
  throw Error(body);
}

}  // namespace coinfer
