// A population scenario's users plan with the scenario's partitioner one by one; those of a group
// whose plans differ only in their own device share one (sim/scenario/population.hpp PlanSharing).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

#include "partitioners/builtin.hpp"
#include "sim/scenario/scenario.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;

namespace {

ScenarioPlan eight_phones(const std::string& partitioner) {
  const auto file = test::scratch_dir() / "phones.yaml";
  std::ofstream(file) << "model: lenet5\n"
                         "platform:\n"
                         "  name: cell\n"
                         "  devices:\n"
                         "    - {name: phone, count: 8, calibration: "
                      << COINFER_SOURCE_DIR
                      << "/platforms/calibration/nexus5.json}\n"
                         "    - {name: server, calibration: "
                      << COINFER_SOURCE_DIR
                      << "/platforms/calibration/gtx1080.json}\n"
                         "  networks:\n"
                         "    - {name: wlan, kind: wifi, members: [phone, server], rate_mbps: 18.88}\n"
                         "users:\n"
                         "  - {device: phone}\n"
                         "host_profile: {basis: estimate}\n"
                         "partitioner: "
                      << partitioner
                      << "\n"
                         "workload: {kind: stream, rate_fps: 1, frames: 2}\n";
  PartitionerRegistry registry("partitioner");
  register_builtin_partitioners(registry);
  return partition_scenario(load_scenario(file.string(), {}), registry);
}

bool names_device(const Plan& plan, const std::string& device) {
  return std::any_of(plan.tasks.begin(), plan.tasks.end(),
                     [&](const Task& t) { return t.device == device || t.src == device || t.dst == device; });
}

}  // namespace

TEST_CASE("population scenario: identical phones on one cell share one plan, each run on its own phone") {
  const ScenarioPlan planned = eight_phones("{name: remote, server: server, network: wlan}");
  REQUIRE(planned.users.size() == 8);
  REQUIRE(planned.user_plans.size() == 8);
  for (const auto& p : planned.user_plans) CHECK(p == planned.user_plans.front());
  CHECK(planned.user_plans.front()->stand_in == kUserDevice);
  // User 0's plan, as the run reports it, and user 3's name their own phones.
  CHECK(names_device(planned.plan, "phone1"));
  CHECK_FALSE(names_device(planned.plan, kUserDevice));
  const Plan fourth = plans_for(*planned.user_plans[3], planned.users[3].device).front();
  CHECK(names_device(fourth, "phone4"));
  CHECK_FALSE(names_device(fourth, "phone1"));
}
