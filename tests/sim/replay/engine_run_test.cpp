#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

#include "sim/core/error.hpp"
#include "sim/core/sanitizer.hpp"
#include "sim/replay/engine_run.hpp"
#include "sim/replay/simulate.hpp"

namespace sg4 = simgrid::s4u;

namespace {

// One host; `receive` waits on a mailbox nobody sends to when `deadlock`, else on a message a
// second actor sends.
std::string run_mailbox(bool deadlock) {
  char name[] = "engine_run_test";
  char quiet[] = "--log=root.thresh:critical";
#ifdef COINFER_ASAN
  char contexts[] = "--cfg=contexts/factory:thread";  // as simulate() does under ASan
#else
  char contexts[] = "--cfg=contexts/factory:raw";
#endif
  char* argv[] = {name, quiet, contexts, nullptr};
  int argc = 3;
  sg4::Engine engine(&argc, argv);
  auto* zone = sg4::create_full_zone("z");
  auto* host = zone->create_host("h", 1e9)->seal();
  zone->seal();
  int received = 0;
  sg4::Actor::create("receive", host, [&received] { received = *sg4::Mailbox::by_name("m")->get<int>(); });
  static int message = 7;
  if (!deadlock) sg4::Actor::create("send", host, [] { sg4::Mailbox::by_name("m")->put(&message, 8); });
  coinfer::replay::run_engine(engine, [] { return std::string("1 receive pending"); });
  return std::to_string(received);
}

}  // namespace

TEST_CASE("run_engine: a deadlocked simulation is an error naming the date and what was pending") {
  try {
    coinfer::run_in_child_process([] { return run_mailbox(true); });
    FAIL("no error");
  } catch (const coinfer::Error& e) {
    const std::string what = e.what();
    CHECK(what.find("the simulation deadlocked at t = 0 s: 1 receive pending") != std::string::npos);
    CHECK(what.find("coinfer bug") != std::string::npos);
  }
}

TEST_CASE("run_engine: a simulation that completes runs as engine.run does") {
  CHECK(coinfer::run_in_child_process([] { return run_mailbox(false); }) == "7");
}
