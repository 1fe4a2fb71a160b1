// PlanMemo (plan_memo.hpp): alike users, copies of one group in the same places of the same
// networks, plan once; a plan naming another copy of the group is not reused.
#include <catch2/catch.hpp>

#include "sim/scenario/plan_memo.hpp"

using namespace coinfer;

namespace {

// Phones p1..p4 (one group) and the server s: p1 and p2 on cell a, p3 on cell b, p4 on cell a and
// as the owner of cell b; q, a group of one, on cell a.
Platform two_cells() {
  Platform p;
  p.name = "t";
  for (const char* n : {"p1", "p2", "p3", "p4", "q", "s"}) {
    Device d;
    d.name = n;
    p.devices.push_back(d);
  }
  p.groups = {{"p", 0, 4}, {"q", 4, 1}};
  Network a;
  a.name = "a";
  a.members = {"p1", "p2", "p4", "q", "s"};
  Network b;
  b.name = "b";
  b.members = {"p3", "s"};
  b.owner = "p4";
  p.networks = {a, b};
  return p;
}

std::shared_ptr<const SharedPlans> offload(const std::string& to) {
  return std::make_shared<const SharedPlans>(
      SharedPlans{kUserDevice, {Plan{"offload", "", {transfer_task("up", kUserDevice, to, 10, {})}}}});
}

}  // namespace

TEST_CASE("plan memo: copies of a group on the same networks are one kind") {
  const Platform p = two_cells();
  const PlanMemo memo(p);
  const Partitioner* part = nullptr;
  REQUIRE(memo.key(part, false, "p1"));
  CHECK(memo.key(part, false, "p1") == memo.key(part, false, "p2"));
  CHECK(memo.key(part, false, "p1") != memo.key(part, false, "p3"));  // another cell
  CHECK(memo.key(part, false, "p1") != memo.key(part, false, "p4"));  // also cell b's owner
  CHECK(memo.key(part, false, "p1") != memo.key(part, true, "p2"));   // planned on its share
  CHECK_FALSE(memo.key(part, false, "q"));                            // a group of one: no like
  CHECK_FALSE(memo.key(part, false, "s"));                            // in no group
}

TEST_CASE("plan memo: a kept plan serves its kind only") {
  const Platform p = two_cells();
  PlanMemo memo(p);
  const auto plans = offload("s");
  CHECK(memo.find(memo.key(nullptr, false, "p2")) == nullptr);
  CHECK(memo.keep(memo.key(nullptr, false, "p1"), plans));
  CHECK(memo.find(memo.key(nullptr, false, "p2")) == plans);
  CHECK(memo.find(memo.key(nullptr, false, "p3")) == nullptr);
  CHECK(memo.find(std::nullopt) == nullptr);
}

TEST_CASE("plan memo: a plan naming another copy of the group is not kept") {
  const Platform p = two_cells();
  PlanMemo memo(p);
  // p1 offloading to p2 would be p2 offloading to p1, not to itself: not a like's plan.
  CHECK_FALSE(memo.keep(memo.key(nullptr, false, "p1"), offload("p2")));
  CHECK(memo.find(memo.key(nullptr, false, "p2")) == nullptr);
  // Nor one naming a copy in a pair channel.
  auto channelled = std::make_shared<SharedPlans>(*offload("s"));
  channelled->variants[0].tasks[0].channel = "p2|s";
  CHECK_FALSE(memo.keep(memo.key(nullptr, false, "p1"), channelled));
  // Nor plans standing in for a device of their own (no sharing on this platform).
  auto own = std::make_shared<SharedPlans>(*offload("s"));
  own->stand_in = "p1";
  CHECK_FALSE(memo.keep(memo.key(nullptr, false, "p1"), own));
}
