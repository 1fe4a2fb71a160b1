#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/plan/compiled_plan.hpp"
#include "sim/plan/critical_path.hpp"
#include "sim/plan/plan_json.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

namespace {

// a, b, c on one WiFi cell (8 Mbps, 10 ms); c also wired to d.
Platform four_devices() {
  return test::make_platform({test_device("a"), test_device("b"), test_device("c"), test_device("d")},
                             {test::shared_network("w", NetworkKind::Wifi, {"a", "b", "c"}, 8e6, 0.01),
                              test::shared_network("e", NetworkKind::Wired, {"c", "d"}, 80e6, 0.0)});
}

std::string compile_error(const Plan& plan) {
  const Platform p = four_devices();
  try {
    validate_plan(plan, p);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("plan JSON round trip") {
  const Plan plan{
      "remote",
      "",
      {transfer_task("up", "a", "c", 1000, {}, "input", "w"),
       compute_task("run", "c", 0.5, {"up"}, "conv1..fc8"), transfer_task("down", "c", "a", 40, {"run"})}};
  const Json j = plan_to_json(plan);
  CHECK(j["tasks"][0]["network"] == "w");
  CHECK(plan_from_json(j) == plan);
}

TEST_CASE("plan JSON: metadata become plan file facts, written back unchanged") {
  const Json j = {{"name", "p"},
                  {"metadata", {{"gamma", 4.0}, {"accuracy", 0.885}}},
                  {"tasks", {{{"id", "a"}, {"kind", "compute"}, {"device", "a"}, {"duration_s", 0.1}}}}};
  const Plan plan = plan_from_json(j);
  CHECK(facts_of<PlanFileFacts>(plan).values.at("gamma") == 4.0);
  CHECK(plan.facts->accuracy() == std::optional<double>(0.885));
  CHECK(plan_to_json(plan)["metadata"] == j["metadata"]);
}

TEST_CASE("plan: facts of another family are an Error naming the plan and both families") {
  Plan plan{"p", "", {}};
  CHECK_THROWS_WITH(facts_of<PlanFileFacts>(plan),
                    "plan variant 'p' has no plan file facts (it carries none)");
  struct OtherFacts final : VariantFacts {
    std::string_view family() const override { return "other"; }
    Json to_json() const override { return Json::object(); }
  };
  plan.facts = std::make_shared<const OtherFacts>();
  CHECK_THROWS_WITH(facts_of<PlanFileFacts>(plan),
                    "plan variant 'p' has no plan file facts (it carries other facts)");
}

TEST_CASE("plan JSON round trip keeps a transfer's channel and omits an empty one") {
  Task relayed = transfer_task("halo", "w1", "go", 512, {}, "conv1_2");
  relayed.channel = pair_channel("w2", "w1");
  const Plan plan{"relay", "", {relayed, transfer_task("up", "w1", "go", 40, {})}};
  const Json j = plan_to_json(plan);
  CHECK(j["tasks"][0]["channel"] == "w1|w2");  // the unordered pair, names sorted
  CHECK_FALSE(j["tasks"][1].contains("channel"));
  CHECK(plan_from_json(j) == plan);
}

TEST_CASE("plan JSON: an empty channel is an InputError naming the task") {
  CHECK_THROWS_WITH(plan_from_json(Json::parse(R"({"tasks": [{"id": "x", "kind": "transfer", "src": "a",
                                                  "dst": "b", "bytes": 1, "channel": ""}]})"),
                                   "p.json"),
                    Catch::Contains("p.json") && Catch::Contains("tasks[0].channel: expected a non-empty"));
}

TEST_CASE("plan JSON errors name the task path") {
  CHECK_THROWS_WITH(
      plan_from_json(Json::parse(R"({"tasks": [{"id": "x", "kind": "compute", "device": "a"}]})"), "p.json"),
      Catch::Contains("p.json: tasks[0].duration_s: missing key"));
  CHECK_THROWS_WITH(
      plan_from_json(Json::parse(
          R"({"tasks": [{"id": "x", "kind": "transfer", "src": "a", "dst": "b", "bytes": -1}]})")),
      Catch::Contains("tasks[0].bytes"));
  CHECK_THROWS_WITH(plan_from_json(Json::parse(R"({"tasks": [{"id": "x", "kind": "teleport"}]})")),
                    Catch::Contains("tasks[0].kind"));
}

TEST_CASE("plan validation: unknown devices, unconnected transfers, wrong locations, cycles") {
  CHECK_THAT(compile_error({"p", "", {compute_task("x", "zz", 1, {})}}),
             Catch::Contains("plan 'p': tasks[0].device: unknown device 'zz'; devices: a, b, c, d"));
  CHECK_THAT(compile_error({"p", "", {transfer_task("x", "a", "d", 1, {})}}),
             Catch::Contains("tasks[0]: no network connects 'a' and 'd'"));
  CHECK_THAT(compile_error({"p", "", {transfer_task("x", "a", "b", 1, {}, "", "e")}}),
             Catch::Contains("tasks[0].network: network 'e' does not connect 'a' and 'b'"));
  CHECK_THAT(compile_error({"p", "", {transfer_task("x", "a", "a", 1, {})}}), Catch::Contains("to itself"));
  CHECK_THAT(compile_error({"p", "", {compute_task("x", "a", 1, {}), compute_task("x", "a", 1, {})}}),
             Catch::Contains("tasks[1].id: duplicate task id 'x'"));
  CHECK_THAT(compile_error({"p", "", {compute_task("x", "a", 1, {"nope"})}}),
             Catch::Contains("tasks[0].deps[0]: unknown task 'nope'"));
  // b cannot compute on data that is still on a.
  CHECK_THAT(compile_error({"p", "", {compute_task("x", "a", 1, {}), compute_task("y", "b", 1, {"x"})}}),
             Catch::Contains("tasks[1].deps[0]: 'x' leaves its output on 'a' but 'y' needs it on 'b'"));
  CHECK_THAT(compile_error({"p",
                            "",
                            {compute_task("x", "a", 1, {"z"}), compute_task("y", "a", 1, {"x"}),
                             compute_task("z", "a", 1, {"y"})}}),
             Catch::Contains("dependency cycle:"));
  CHECK_THAT(compile_error({"p", "", {}}), Catch::Contains("the plan has no tasks"));
  CHECK_THAT(compile_error({"p", "", {compute_task("x", "a", -1, {})}}),
             Catch::Contains("tasks[0].duration_s"));
}

TEST_CASE("plan: the cycle message lists the cycle in dependency order") {
  const auto msg = compile_error({"p",
                                  "",
                                  {compute_task("x", "a", 1, {"z"}), compute_task("y", "a", 1, {"x"}),
                                   compute_task("z", "a", 1, {"y"})}});
  // x needs z, y needs x, z needs y: one of the rotations of x -> y -> z -> x.
  const bool rotation = msg.find("x -> y -> z -> x") != std::string::npos ||
                        msg.find("y -> z -> x -> y") != std::string::npos ||
                        msg.find("z -> x -> y -> z") != std::string::npos;
  CHECK(rotation);
}

TEST_CASE("plan: first stage is the entry tasks and the compute chain on their device") {
  const Platform p = four_devices();
  const Topology topo(p);
  const Plan plan{"p",
                  "",
                  {compute_task("c1", "a", 1, {}), compute_task("c2", "a", 1, {"c1"}),
                   transfer_task("t", "a", "b", 10, {"c2"}), compute_task("c3", "b", 1, {"t"}),
                   transfer_task("back", "b", "a", 10, {"c3"}), compute_task("c4", "a", 1, {"c2", "back"})}};
  const CompiledPlan cp = compile_plan(plan, topo);
  CHECK(cp.task(0).first_stage);
  CHECK(cp.task(1).first_stage);
  CHECK_FALSE(cp.task(2).first_stage);  // a transfer after the entry
  CHECK_FALSE(cp.task(5).first_stage);  // needs data from b
  CHECK(cp.first_stage_size() == 2);
  CHECK(std::vector<std::uint32_t>(cp.entries().begin(), cp.entries().end()) ==
        std::vector<std::uint32_t>{0});
}

TEST_CASE("plan: compiled dependencies, successors, entries and order are the plan's") {
  const Platform p = four_devices();
  const Topology topo(p);
  // Listed out of order: d depends on b and c, both on a; e is a second entry.
  const Plan plan{
      "p",
      "",
      {compute_task("d", "a", 1, {"b", "c"}), compute_task("b", "a", 1, {"a"}), compute_task("a", "a", 1, {}),
       compute_task("c", "a", 1, {"a"}), compute_task("e", "a", 1, {})}};
  const CompiledPlan cp = compile_plan(plan, topo);
  const auto list = [](std::span<const std::uint32_t> s) {
    return std::vector<std::uint32_t>(s.begin(), s.end());
  };
  using V = std::vector<std::uint32_t>;
  CHECK(list(cp.deps(0)) == V{1, 3});
  CHECK(list(cp.deps(1)) == V{2});
  CHECK(list(cp.deps(2)).empty());
  CHECK(list(cp.succs(2)) == V{1, 3});
  CHECK(list(cp.succs(1)) == V{0});
  CHECK(list(cp.succs(0)).empty());
  CHECK(list(cp.entries()) == V{2, 4});
  CHECK(list(cp.topo_order()) == V{2, 1, 3, 0, 4});
  CHECK(cp.channels.empty());  // no network pays wake-ups per channel
  CHECK(cp.channel(0).empty());
}

TEST_CASE("analytic critical path of a diamond") {
  const Platform p = four_devices();
  // a: c0 (0.1 s) -> a->b 1e6 B (0.01 + 1.0) -> b: cb (0.3)
  //               -> a->c 5e5 B (0.01 + 0.5) -> c: cc (0.2) -> c->d 1e6 B wired (0 + 0.1) -> d: cd (0.05)
  // path via b: 0.1 + 1.01 + 0.3 = 1.41; via c and d: 0.1 + 0.51 + 0.2 + 0.1 + 0.05 = 0.96.
  const Plan plan{"p",
                  "",
                  {compute_task("c0", "a", 0.1, {}), transfer_task("ab", "a", "b", 1e6, {"c0"}),
                   transfer_task("ac", "a", "c", 5e5, {"c0"}), compute_task("cb", "b", 0.3, {"ab"}),
                   compute_task("cc", "c", 0.2, {"ac"}), transfer_task("cd", "c", "d", 1e6, {"cc"}),
                   compute_task("fin", "d", 0.05, {"cd"})}};
  const Topology topo(p);
  const AnalyticCost cost = analytic_critical_path(compile_plan(plan, topo), topo);
  CHECK(cost.latency_s == Approx(1.41));
  CHECK(cost.path == std::vector<std::string>{"c0", "ab", "cb"});
  CHECK(analytic_latency_s(plan, p) == Approx(1.41));
}

TEST_CASE("plan: an after dependency orders two uploads without moving data") {
  const Platform p = four_devices();
  // Two uploads a -> c of 1e6 B each (0.01 s + 1 s on the 8 Mbps cell), the second after the
  // first: 2.02 s on the critical path; in parallel they would end at 1.01 s each.
  Task second = transfer_task("up2", "a", "c", 1e6, {});
  second.after = {"up1"};
  const Plan plan{"p", "", {transfer_task("up1", "a", "c", 1e6, {}), second}};
  const Topology topo(p);
  CHECK(analytic_critical_path(compile_plan(plan, topo), topo).latency_s == Approx(2.02));
  const Json j = plan_to_json(plan);
  CHECK(j["tasks"][1]["after"] == Json::array({"up1"}));
  CHECK_FALSE(j["tasks"][0].contains("after"));
  CHECK(plan_from_json(j) == plan);
  // After names a known task, not itself, not one of its deps.
  second.after = {"nope"};
  CHECK_THAT(compile_error({"p", "", {transfer_task("up1", "a", "c", 1, {}), second}}),
             Catch::Contains("tasks[1].after[0]: unknown task 'nope'"));
}

TEST_CASE("plan: channel_with_device renames either side of a pair channel, nothing else") {
  CHECK(channel_with_device("edge|phone", "phone", "p7") == "edge|p7");  // re-sorted
  CHECK(channel_with_device("a|phone", "phone", "b") == "a|b");
  CHECK(channel_with_device("phone", "phone", "p7") == "phone");  // not a pair: opaque
  CHECK(channel_with_device("a|b", "phone", "p7") == "a|b");
  CHECK(channel_with_device("a|b|phone", "phone", "p7") == "a|b|phone");
}

TEST_CASE("plan: with_device renames the device, source, destination and channel that name it") {
  Task up = transfer_task("up", "phone", "c", 10, {});
  up.channel = pair_channel("phone", "c");
  const Task renamed = with_device(up, "phone", "a");
  CHECK(renamed.src == "a");
  CHECK(renamed.dst == "c");
  CHECK(renamed.channel == "a|c");
  CHECK(renamed.id == "up");
  CHECK(with_device(compute_task("x", "phone", 1, {}), "phone", "a").device == "a");
  CHECK(with_device(compute_task("x", "c", 1, {}), "phone", "a").device == "c");
}

TEST_CASE("plan: a stand-in's tasks compile onto the device taking its place") {
  Platform p = four_devices();
  p.networks[0].wake_up_s = 0.1;
  p.networks[0].wake_up_per = WakeUpPer::Channel;
  const Topology topo(p);
  Task relay = transfer_task("relay", "c", "a", 10, {"run"});
  relay.channel = pair_channel(kUserDevice, "d");  // serves the pair of the user and d
  const Plan plan{"shared",
                  "",
                  {transfer_task("up", kUserDevice, "c", 10, {}), compute_task("run", "c", 1, {"up"}), relay,
                   compute_task("local", kUserDevice, 1, {})}};
  const CompiledPlan as_b = compile_plan(plan, topo, {kUserDevice, 1});  // b takes its place
  CHECK(as_b.task(0).src == 1);
  CHECK(as_b.task(0).route == topo.route_or_null(0, 1, 2));
  CHECK(as_b.task(3).device == 1);
  CHECK(as_b.channel(0) == "b|c");  // the pair's channel, of the real device
  CHECK(as_b.channel(2) == "b|d");  // an explicit channel: its stand-in side renamed
  const CompiledPlan as_a = compile_plan(plan, topo, {kUserDevice, 0});
  CHECK(as_a.task(0).src == 0);
  CHECK(as_a.channel(0) == "a|c");
  // Without a stand-in, the name is an unknown device.
  CHECK_THROWS_WITH(compile_plan(plan, topo), Catch::Contains("unknown device '@user'"));
}

TEST_CASE("plan: compilations onto different devices share one shape when theirs are equal") {
  const Platform p = four_devices();
  const Topology topo(p);
  const Plan plan{
      "shared", "", {transfer_task("up", kUserDevice, "c", 10, {}), compute_task("run", "c", 1, {"up"})}};
  const CompiledPlan as_a = compile_plan(plan, topo, {kUserDevice, 0});
  CompiledPlan as_b = compile_plan(plan, topo, {kUserDevice, 1});
  REQUIRE(as_b.shape != as_a.shape);
  as_b.share_shape(as_a);
  CHECK(as_b.shape == as_a.shape);
  CHECK(as_b.task(0).src == 1);  // still its own device and route
  CHECK(as_b.task(0).route == topo.route_or_null(0, 1, 2));
  CHECK(as_b.task(1).deps_size == 1);
}

TEST_CASE("plan: a compilation whose first stage differs keeps its own shape") {
  const Platform p = four_devices();
  const Topology topo(p);
  Task then = compute_task("then", "a", 1, {});
  then.after = {"first"};  // ordering only: it may run on another device
  const Plan plan{"shared", "", {compute_task("first", kUserDevice, 1, {}), then}};
  const CompiledPlan as_a = compile_plan(plan, topo, {kUserDevice, 0});  // both on a: one stage
  CompiledPlan as_b = compile_plan(plan, topo, {kUserDevice, 1});
  CHECK(as_a.task(1).first_stage);
  CHECK_FALSE(as_b.task(1).first_stage);
  as_b.share_shape(as_a);
  CHECK(as_b.shape != as_a.shape);
  CHECK_FALSE(as_b.task(1).first_stage);
}
