// A population's groups (population.hpp): their own partitioner parameters, and the expected
// share of the cells a user plans for.
#include <catch2/catch.hpp>

#include "sim/scenario/population.hpp"

using namespace coinfer;

namespace {

Device device(const std::string& name) {
  Device d;
  d.name = name;
  return d;
}

// Phones p1..p4 on the Wi-Fi cell `cell` with the server s; p1 also on an LTE access network to s.
Platform cell_and_lte() {
  Platform p;
  p.name = "t";
  for (const char* n : {"p1", "p2", "p3", "p4", "s"}) p.devices.push_back(device(n));
  Network cell;
  cell.name = "cell";
  cell.kind = NetworkKind::Wifi;
  cell.members = {"p1", "p2", "p3", "p4", "s"};
  cell.link.rate_bps = 40e6;
  Network lte;
  lte.name = "lte";
  lte.kind = NetworkKind::Lte;
  lte.members = {"p1"};
  lte.base = "s";
  lte.uplink.rate_bps = 5e6;
  lte.downlink.rate_bps = 10e6;
  p.networks = {cell, lte};
  return p;
}

std::vector<PopulationUser> users_on(const std::vector<std::string>& devices) {
  std::vector<PopulationUser> out;
  for (const auto& d : devices) out.push_back({d, d, {}, 0});
  return out;
}

}  // namespace

TEST_CASE("population: a shared cell's expected share is its rate over the users on it") {
  const Platform p = cell_and_lte();
  const ExpectedShares shares(p, users_on({"p1", "p2", "p3", "p4"}));
  CHECK(shares.users_on(0) == 4);
  REQUIRE(shares.media_of("p1") == std::vector<std::size_t>{0});
  const Platform view = shares.view(shares.media_of("p1"));
  CHECK(view.networks[0].link.rate_bps == 10e6);
  // An access network's links are each member's own: nothing to share.
  CHECK(view.networks[1].uplink.rate_bps == 5e6);
  CHECK(view.networks[1].downlink.rate_bps == 10e6);
  CHECK(p.networks[0].link.rate_bps == 40e6);  // the platform itself is untouched
}

TEST_CASE("population: only the users' devices count towards a cell's share") {
  const Platform p = cell_and_lte();
  const ExpectedShares shares(p, users_on({"p2", "p3"}));
  CHECK(shares.users_on(0) == 2);
  CHECK(shares.view({0}).networks[0].link.rate_bps == 20e6);
  CHECK(shares.media_of("nobody").empty());
}

TEST_CASE("population: a group's partitioner mapping is laid over the scenario's") {
  UserGroupSpec g;
  const Json scenario{{"cloud", "s"}, {"network", "cell"}};
  CHECK(group_partitioner(g, "neurosurgeon", scenario) ==
        std::pair<std::string, Json>{"neurosurgeon", scenario});
  g.partitioner = Json{{"cloud", "edge2"}};
  CHECK(group_partitioner(g, "neurosurgeon", scenario).second ==
        Json{{"cloud", "edge2"}, {"network", "cell"}});
  g.partitioner = Json{{"name", "neurosurgeon"}, {"network", "lte"}};
  CHECK(group_partitioner(g, "neurosurgeon", scenario).second == Json{{"cloud", "s"}, {"network", "lte"}});
}

TEST_CASE("population: a group naming another partitioner takes its own parameters alone") {
  UserGroupSpec g;
  g.partitioner = Json{{"name", "local"}};
  const auto [name, params] = group_partitioner(g, "neurosurgeon", Json{{"cloud", "s"}});
  CHECK(name == "local");
  CHECK(params == Json::object());
}

TEST_CASE("population: expected_share in a group's partitioner is the group's own") {
  const auto groups = parse_user_groups(Json::parse(
      R"([{"device": "p1", "partitioner": {"cloud": "s", "expected_share": true}}, {"device": "p2"}])"));
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].expected_share == true);
  CHECK(groups[0].partitioner == Json{{"cloud", "s"}});
  CHECK_FALSE(groups[1].expected_share.has_value());
  CHECK(groups[1].partitioner.is_null());
}

TEST_CASE("population: one platform copy set for each user in turn gives each user's view") {
  Platform p = cell_and_lte();
  Network cell2 = p.networks[0];
  cell2.name = "cell2";
  cell2.members = {"p3", "p4", "s"};
  cell2.link.rate_bps = 30e6;
  p.networks.push_back(cell2);
  const ExpectedShares shares(p, users_on({"p1", "p2", "p3", "p4"}));
  Platform copy = p;
  shares.apply(copy, shares.media_of("p3"));  // on both cells
  CHECK(copy.networks[0].link.rate_bps == 10e6);
  CHECK(copy.networks[2].link.rate_bps == 15e6);
  shares.apply(copy, shares.media_of("p1"));  // on the first cell only: the second is restored
  CHECK(copy.networks[0].link.rate_bps == 10e6);
  CHECK(copy.networks[2].link.rate_bps == 30e6);
  CHECK(shares.view(shares.media_of("p1")).networks[2].link.rate_bps == 30e6);
}

TEST_CASE("population: a group's scheduler mapping is laid over the scenario's") {
  UserGroupSpec g;
  g.scheduler = Json{{"server", "edge2"}};
  const auto [name, params] = group_scheduler(g, "cbo", Json{{"server", "edge1"}, {"size_scale", 2}});
  CHECK(name == "cbo");
  CHECK(params == Json{{"server", "edge2"}, {"size_scale", 2}});
  UserGroupSpec other_group;
  other_group.scheduler = Json{{"name", "cbo-local"}};
  const auto [other, own] = group_scheduler(other_group, "cbo", Json{{"server", "edge1"}});
  CHECK(other == "cbo-local");
  CHECK(own == Json::object());
}

TEST_CASE("population: a parameter naming the group's device names each user's own") {
  UserGroupSpec g;
  g.device = "phone";
  const PopulationUser u{"phone/3", "phone3", {}, 0};
  CHECK(for_user(Json{{"device", "phone"}, {"server", "server"}, {"frames", 3}}, g, u) ==
        Json{{"device", "phone3"}, {"server", "server"}, {"frames", 3}});
  CHECK(for_user(Json{{"device", "phone_cpu"}}, g, u) == Json{{"device", "phone_cpu"}});
}

namespace {

Plan offload(const std::string& phone, double bytes = 1e4) {
  return {"offload",
          "",
          {transfer_task("up", phone, "s", bytes, {}), compute_task("run", "s", 0.01, {"up"}),
           transfer_task("down", "s", phone, 100, {"run"})}};
}

}  // namespace

TEST_CASE("population: users of a group whose plans differ only in their device share one") {
  PlanSharing sharing(cell_and_lte());
  const auto users = users_on({"p1", "p2", "p3"});
  const auto a = sharing.add(users[0], offload("p1"));
  const auto b = sharing.add(users[1], offload("p2"));
  CHECK(a == b);
  CHECK(a->stand_in == kUserDevice);
  CHECK(a->variants.front().tasks[0].src == kUserDevice);
  CHECK(a->variants.front().tasks[0].dst == "s");
  const auto c = sharing.add(users[2], offload("p3", 2e4));  // another plan: kept apart
  CHECK(c != a);
  CHECK(sharing.distinct() == 2);
  CHECK(plans_for(*a, "p2").front() == offload("p2"));
}

TEST_CASE("population: plans of different groups are not shared") {
  PlanSharing sharing(cell_and_lte());
  auto users = users_on({"p1", "p2"});
  users[1].group = 1;
  CHECK(sharing.add(users[0], offload("p1")) != sharing.add(users[1], offload("p2")));
}

TEST_CASE("population: a plan naming another user's device is shared only with its like") {
  // p1 relays through p2 and p2 through p1: renamed, each names the other, so they differ.
  PlanSharing sharing(cell_and_lte());
  const auto users = users_on({"p1", "p2", "p3"});
  const Plan via_p2{"relay", "", {transfer_task("x", "p1", "p2", 10, {})}};
  const Plan via_p1{"relay", "", {transfer_task("x", "p2", "p1", 10, {})}};
  const Plan p3_via_p2{"relay", "", {transfer_task("x", "p3", "p2", 10, {})}};
  const auto a = sharing.add(users[0], via_p2);
  CHECK(sharing.add(users[1], via_p1) != a);
  CHECK(sharing.add(users[2], p3_via_p2) == a);
  CHECK(plans_for(*a, "p3").front() == p3_via_p2);
}

TEST_CASE("population: on a platform with a device called like the stand-in, nothing is shared") {
  Platform p = cell_and_lte();
  p.devices.push_back(device(kUserDevice));
  PlanSharing sharing(p);
  const auto users = users_on({"p1", "p2"});
  const auto a = sharing.add(users[0], offload("p1"));
  const auto b = sharing.add(users[1], offload("p2"));
  CHECK(a != b);
  CHECK(a->stand_in == "p1");
  CHECK(plans_for(*b, "p2").front() == offload("p2"));
}
