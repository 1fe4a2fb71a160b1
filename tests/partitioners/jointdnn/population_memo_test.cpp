// A population planning with JointDNN or Neurosurgeon plans once per kind of user (alike phones on
// the same cells, sim/scenario/plan_memo.hpp), and each user's plan is the one it gets planned
// alone.
#include <catch2/catch.hpp>

#include <fstream>

#include <fmt/format.h>

#include "partitioners/builtin.hpp"
#include "sim/scenario/scenario.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;

namespace {

// Forwards to `inner`, counting its calls; plans every user when `every_user`.
struct Counting : Partitioner {
  Counting(std::unique_ptr<Partitioner> p, bool every, int& n)
      : inner(std::move(p)), every_user(every), calls(n) {}
  Plan partition(const PartitionContext& c) const override { return partition_variants(c).front(); }
  std::vector<Plan> partition_variants(const PartitionContext& c) const override {
    ++calls;
    return inner->partition_variants(c);
  }
  bool plans_alike_sources_alike(const PartitionContext& c) const override {
    return !every_user && inner->plans_alike_sources_alike(c);
  }
  std::unique_ptr<Partitioner> inner;
  bool every_user;
  int& calls;
};

// Phones 1-3 on cell a (54 Mbps), 4-5 on cell b (0.5 Mbps), all reaching the server; each plans
// on its cell's expected share, so the two cells' phones plan differently.
struct Population {
  int calls = 0;
  ScenarioPlan plan(const std::string& partitioner, bool every_user) {
    const auto file = test::scratch_dir() / "phones.yaml";
    std::ofstream(file) << fmt::format(R"(model: mobilenet_v2_cifar
platform:
  name: cells
  devices:
    - {{name: phone, count: 5, calibration: {0}/platforms/calibration/nexus5.json}}
    - {{name: server, calibration: {0}/platforms/calibration/gtx1080.json}}
  networks:
    - {{name: a, kind: wifi, members: [phone1, phone2, phone3, server], rate_mbps: 54}}
    - {{name: b, kind: wifi, members: [phone4, phone5, server], rate_mbps: 0.5}}
users: [{{device: phone}}]
host_profile: {{basis: estimate}}
partitioner: {{name: counted, expected_share: true}}
workload: {{kind: stream, rate_fps: 1, frames: 2}}
)",
                                       COINFER_SOURCE_DIR);
    PartitionerRegistry builtin("partitioner");
    register_builtin_partitioners(builtin);
    PartitionerRegistry registry("partitioner");
    registry.add("counted", "the builtin partitioner, its calls counted", ParamSchema{}, [&](const Json&) {
      return std::make_unique<Counting>(builtin.create(partitioner, Json::object()), every_user, calls);
    });
    return partition_scenario(load_scenario(file.string(), {}), registry);
  }
};

}  // namespace

TEST_CASE("population memo: alike phones on one cell plan once, each cell's phones its own plan") {
  for (const char* name : {"jointdnn", "neurosurgeon"}) {
    INFO(name);
    Population once, each;
    const ScenarioPlan memo = once.plan(name, false);
    const ScenarioPlan every = each.plan(name, true);
    CHECK(once.calls == 2);  // one per cell
    CHECK(each.calls == 5);
    REQUIRE(memo.user_plans.size() == 5);
    CHECK(memo.user_plans[0] == memo.user_plans[2]);
    CHECK(memo.user_plans[3] == memo.user_plans[4]);
    CHECK(memo.user_plans[0]->variants != memo.user_plans[3]->variants);  // the cells' rates differ
    for (std::size_t u = 0; u < 5; ++u)
      CHECK(plans_for(*memo.user_plans[u], memo.users[u].device) ==
            plans_for(*every.user_plans[u], every.users[u].device));
  }
}
