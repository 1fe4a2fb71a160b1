// `coinfer list`: every registered component with its parameters, printed from the same schemas
// that validate scenarios; and the contract every registered partitioner and scheduler keeps:
// an unknown parameter is rejected, naming it and listing the known ones.
#include <algorithm>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const std::string kRoot = COINFER_SOURCE_DIR;

json list_json(const std::string& category) {
  const auto r = run_cli("list " + category + " --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

std::vector<std::string> names_of(const json& components) {
  std::vector<std::string> out;
  for (const auto& c : components) out.push_back(c.at("name").get<std::string>());
  return out;
}

std::vector<std::string> registered(const std::string& category) {
  return names_of(list_json(category)[category]);
}

// The first word of every line of a component table that starts in column 0 (a component's
// "NAME  summary" line), after the heading and its blank line.
std::set<std::string> table_names(const std::string& table) {
  std::set<std::string> out;
  std::istringstream in(table);
  std::string line;
  std::getline(in, line);  // heading
  while (std::getline(in, line))
    if (!line.empty() && line.front() != ' ') out.insert(line.substr(0, line.find(' ')));
  return out;
}

// A lenet5 scenario on the shipped edge platform with the given partitioner and scheduler.
std::filesystem::path scenario(const std::string& name, const std::string& partitioner,
                               const std::string& scheduler) {
  return write_text(name + ".yaml", "name: " + name + "\nmodel: lenet5\nplatform: " + kRoot +
                                        "/platforms/edge_wifi_lte.yaml\nsource: phone\n"
                                        "host_profile: {basis: estimate}\npartitioner: " +
                                        partitioner + "\nscheduler: " + scheduler + "\n");
}

std::string known_keys_text(const json& component) {
  std::vector<std::string> keys;
  for (const auto& p : component.at("params")) keys.push_back(p.at("name").get<std::string>());
  return keys.empty() ? "takes no parameters" : fmt::format("expected one of {}", fmt::join(keys, ", "));
}

const json& component_named(const json& components, const std::string& name) {
  for (const auto& c : components)
    if (c.at("name") == name) return c;
  FAIL("no component " << name);
  throw;
}

}  // namespace

TEST_CASE("list partitioners prints every registered partitioner, once, as --json has them") {
  const auto r = run_cli("list partitioners");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto names = registered("partitioners");
  CHECK(table_names(r.out) == std::set<std::string>(names.begin(), names.end()));
  // The built-ins this repository ships are all there.
  for (const auto* n : {"local", "remote", "plan", "modnn", "bodp", "grid2d", "adalearner"})
    CHECK(std::count(names.begin(), names.end(), n) == 1);
}

TEST_CASE("list partitioners prints every parameter with its type, default and meaning") {
  const auto r = run_cli("list partitioners");
  REQUIRE(r.exit_code == 0);
  const json listing = list_json("partitioners");  // a range-for over list_json(..)[..] would dangle
  for (const auto& c : listing["partitioners"])
    for (const auto& p : c.at("params")) {
      INFO(c.at("name") << "." << p.at("name"));
      CHECK_THAT(r.out, Contains("  " + p.at("name").get<std::string>() + " "));
      CHECK_THAT(r.out, Contains(p.at("meaning").get<std::string>()));
    }
  // One row read in full: bodp's workers, an int in [1, 1024] with no default.
  CHECK_THAT(r.out, Contains("workers            int in [1, 1024]      -        worker phones k"));
  CHECK_THAT(r.out, Contains("file       path  required"));
}

TEST_CASE("list --json describes parameters as data") {
  const auto parts = list_json("partitioners")["partitioners"];
  const auto& modnn = component_named(parts, "modnn");
  const auto& conv = *std::find_if(modnn["params"].begin(), modnn["params"].end(),
                                   [](const json& p) { return p["name"] == "conv"; });
  CHECK(conv["type"] == "enum");
  CHECK(conv["default"] == "bodp");
  CHECK(conv["choices"] == json::array({"bodp", "grid2d"}));
  const auto& plan = component_named(parts, "plan");
  CHECK(plan["params"][0]["required"] == true);
}

TEST_CASE("every registered partitioner rejects an unknown parameter, listing the ones it takes") {
  const auto parts = list_json("partitioners")["partitioners"];
  const auto name = GENERATE_COPY(from_range(names_of(parts)));
  const auto s = scenario("unknown_" + name, "{name: " + name + ", no_such_param: 1}", "none");
  const auto r = run_cli("partition " + s.string());
  INFO(name << ": " << r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("partitioner.no_such_param: unknown key; " +
                             known_keys_text(component_named(parts, name))));
}

TEST_CASE("every registered scheduler rejects an unknown parameter, listing the ones it takes") {
  const auto scheds = list_json("schedulers")["schedulers"];
  const auto name = GENERATE_COPY(from_range(names_of(scheds)));
  const auto s = scenario("unknown_sched_" + name, "local", "{name: " + name + ", no_such_param: 1}");
  const auto r = run_cli("run " + s.string() + " --out " + (scratch_dir() / ("out_" + name)).string());
  INFO(name << ": " << r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("scheduler.no_such_param: unknown key; " +
                             known_keys_text(component_named(scheds, name))));
}

TEST_CASE("list solvers names where each problem JSON is documented, and the file exists") {
  const auto solvers = list_json("solvers")["solvers"];
  REQUIRE(solvers.size() >= 10);
  for (const auto& s : solvers) {
    INFO(s.at("name"));
    CHECK(s.at("params").empty());  // a solver takes a problem, not parameters
    CHECK(std::filesystem::is_regular_file(kRoot + "/" + s.at("problem").get<std::string>()));
  }
}

TEST_CASE("list devices lists every shipped calibration file with its kind and figures") {
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(kRoot + "/platforms/calibration"))
    if (e.path().extension() == ".json") files.insert(e.path().stem().string());
  const auto devices = list_json("devices")["devices"];
  const auto names = names_of(devices);
  CHECK(std::set<std::string>(names.begin(), names.end()) == files);
  const auto& nexus5 = component_named(devices, "nexus5");
  CHECK(nexus5["kind"] == "phone_cpu");
  CHECK(nexus5["fitted_to"] == json::array({"vgg16 latency 15809 ms"}));
}

TEST_CASE("list models lists the zoo with input shapes") {
  const auto models = list_json("models")["models"];
  const auto& lenet = component_named(models, "lenet5");
  CHECK(lenet["input"] == json::array({1, 32, 32}));
  CHECK_THAT(run_cli("list models").out, Contains("lenet5"));
}

TEST_CASE("list networks gives every network kind and the keys a platform network takes") {
  const auto networks = list_json("networks")["networks"];
  std::vector<std::string> kinds;
  for (const auto& k : networks["kinds"]) kinds.push_back(k["kind"].get<std::string>());
  CHECK(kinds == std::vector<std::string>{"wifi", "wifi_direct", "wired", "lte", "3g", "4g"});
  std::set<std::string> keys;
  for (const auto& k : networks["keys"]) keys.insert(k["key"].get<std::string>());
  for (const auto* k :
       {"members", "base", "uplink", "rate_mbps", "wake_up_s", "wake_up_per", "bandwidth", "floor_mbps"})
    CHECK(keys.count(k) == 1);
}

TEST_CASE("list without a category prints every category") {
  const auto all = list_json("");
  for (const auto* c : {"partitioners", "schedulers", "solvers", "models", "devices", "networks"})
    CHECK(all.contains(c));
  const auto r = run_cli("list");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("partitioners: ") && Contains("networks: "));
}
