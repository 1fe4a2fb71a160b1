#pragma once
// The reference programs of the benchmarks: a bare SimGrid engine set up as coinfer's replay sets
// up its own (CM02, no cross traffic, raw contexts, quiet logs; simulate.cpp). One per process, as
// SimGrid allows.
#include <xbt/log.h>
#include <simgrid/s4u.hpp>

#include <memory>

namespace coinfer::bench {

inline std::unique_ptr<simgrid::s4u::Engine> make_bare_engine() {
  static int argc = 1;
  static char name[] = "bare";
  static char* argv[] = {name, nullptr};
  auto e = std::make_unique<simgrid::s4u::Engine>(&argc, argv);
  xbt_log_control_set("root.thresh:critical");
  e->set_config("network/model:CM02");
  e->set_config("network/crosstraffic:0");
  e->set_config("contexts/factory:raw");
  return e;
}

}  // namespace coinfer::bench
