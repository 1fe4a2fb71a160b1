// The Chrome trace writer on its own: the file appears whole at finish, or not at all.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/json_access.hpp"
#include "sim/trace/chrome_trace_writer.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
namespace fs = std::filesystem;

namespace {

Json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

// Files in `dir` a user would see (hidden staging names excluded).
std::size_t visible_files(const std::string& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().filename().string()[0] != '.';
  return n;
}

void write_some(ChromeTraceWriter& w) {
  w.add_track(0, TraceGroup::Devices, "phone");
  w.add_track(1, TraceGroup::Network, "wlan");
  w.add_counter(0, TraceGroup::Network, "wlan rate", "mbps");
  w.slice({0, "conv1", "compute", 0.5, 0.75, 3, "stage \"a\""});
  w.slice({1, "x", "transfer", 0.75, 1.0, 3, ""});
  w.sample(0, 0.0, 18.88);
}

}  // namespace

TEST_CASE("trace writer: the file appears at finish with every event") {
  const test::TempDir dir;
  const auto path = dir.path() + "/t.json";
  ChromeTraceWriter w(path);
  write_some(w);
  CHECK_FALSE(fs::exists(path));  // not before finish
  w.finish();
  const Json j = read_json(path);
  CHECK(j["displayTimeUnit"] == "ms");
  // 2 process names + 2 x (thread name, sort index) + 2 slices + 1 sample.
  REQUIRE(j["traceEvents"].size() == 9);
  CHECK(w.events() == 9);
  const Json& conv = j["traceEvents"][6];
  CHECK(conv["name"] == "conv1");
  CHECK(conv["ph"] == "X");
  CHECK(conv["cat"] == "compute");
  CHECK(conv["pid"] == 1);
  CHECK(conv["tid"] == 0);
  CHECK(conv["ts"].get<double>() == 500000.0);  // microseconds
  CHECK(conv["dur"].get<double>() == 250000.0);
  CHECK(conv["args"]["frame"] == 3);
  CHECK(conv["args"]["label"] == "stage \"a\"");               // escaped, read back as written
  CHECK_FALSE(j["traceEvents"][7]["args"].contains("label"));  // empty labels are left out
  const Json& rate = j["traceEvents"][8];
  CHECK(rate["ph"] == "C");
  CHECK(rate["name"] == "wlan rate");
  CHECK(rate["pid"] == 2);
  CHECK(rate["args"]["mbps"].get<double>() == 18.88);
}

TEST_CASE("trace writer: names with control characters, quotes and backslashes stay valid JSON") {
  const test::TempDir dir;
  const auto path = dir.path() + "/t.json";
  const std::string odd = std::string("a\"b\\c\nd\te\x01 f");
  ChromeTraceWriter w(path);
  w.add_track(0, TraceGroup::Devices, odd);
  w.slice({0, odd, "compute", 0.0, 1.0, 0, odd});
  w.finish();
  const Json j = read_json(path);
  CHECK(j["traceEvents"][2]["args"]["name"] == odd);
  CHECK(j["traceEvents"][4]["name"] == odd);
  CHECK(j["traceEvents"][4]["args"]["label"] == odd);
}

TEST_CASE("trace writer: a writer destroyed without finish leaves no file") {
  const test::TempDir dir;
  const auto path = dir.path() + "/t.json";
  {
    ChromeTraceWriter w(path);
    write_some(w);
    // 3e4 slices (about 4 MB, flushed to the staged file several times) and then no finish.
    for (std::size_t i = 0; i < 30000; ++i)
      w.slice({0, "task", "compute", 0.001 * i, 0.001 * i + 0.0005, i, "l"});
  }
  CHECK_FALSE(fs::exists(path));
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("trace writer: a process killed while writing leaves no file at the path") {
  const test::TempDir dir;
  const auto path = dir.path() + "/killed.json";
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    try {
      ChromeTraceWriter w(path);
      write_some(w);
      for (std::size_t i = 0; i < 30000; ++i)
        w.slice({0, "task", "compute", 0.001 * i, 0.001 * i + 0.0005, i, "l"});
      ::raise(SIGKILL);  // no destructor, no finish
    } catch (...) {
    }
    ::_exit(3);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK_FALSE(fs::exists(path));
  CHECK(visible_files(dir.path()) == 0);
}

TEST_CASE("trace writer: a large trace is valid JSON with every event") {
  // More than the 1 MiB buffer: the file is written in blocks while events come.
  const test::TempDir dir;
  const auto path = dir.path() + "/big.json";
  ChromeTraceWriter w(path);
  w.add_track(0, TraceGroup::Devices, "d");
  w.add_counter(0, TraceGroup::Devices, "d queue", "tasks");
  for (std::size_t i = 0; i < 20000; ++i) {
    w.slice({0, "t", "compute", 1e-3 * i, 1e-3 * i + 1e-4, i, ""});
    w.sample(0, 1e-3 * i, static_cast<double>(i % 3));
  }
  w.finish();
  const Json j = read_json(path);
  CHECK(j["traceEvents"].size() == 2 + 2 + 40000);
  CHECK(fs::file_size(path) > (1u << 20));
}

TEST_CASE("trace writer: without a path, the finished trace is published where asked") {
  const test::TempDir dir;
  const auto path = dir.path() + "/later/t.json";  // the folder is made
  std::ofstream(dir.path() + "/old.json") << "old";
  ChromeTraceWriter w;
  write_some(w);
  CHECK_THROWS_AS(w.publish(path), Error);  // not finished yet
  w.finish();
  CHECK_FALSE(fs::exists(path));
  w.publish(path);
  CHECK(read_json(path)["traceEvents"].size() == 9);
  CHECK_THROWS_AS(w.publish(dir.path() + "/again.json"), Error);  // once
}

TEST_CASE("trace writer: publishing replaces an existing file whole") {
  const test::TempDir dir;
  const auto path = dir.path() + "/t.json";
  std::ofstream(path) << "an older trace";
  ChromeTraceWriter w(path);
  write_some(w);
  w.finish();
  CHECK(read_json(path)["traceEvents"].size() == 9);
  CHECK(visible_files(dir.path()) == 1);
}
