// Populations (`users:`) end to end through `coinfer run` (MACs-based host estimate, so the numbers
// do not depend on this machine's speed).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using nlohmann::json;

namespace {

const std::string kRoot = COINFER_SOURCE_DIR;

json results_of(const std::filesystem::path& dir) { return json::parse(read_text(dir / "results.json")); }

std::size_t lines_in(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// LeNet-5 streamed from the shipped edge platform's phone to its server over WiFi; `who` is
// `source: phone` or a `users:` list.
std::filesystem::path lenet_stream(const std::string& name, const std::string& who) {
  return write_text(name + ".yaml", "name: " + name + "\nmodel: lenet5\nplatform: " + kRoot +
                                        "/platforms/edge_wifi_lte.yaml\n" + who +
                                        "\nhost_profile: {basis: estimate}\nseed: 3\n"
                                        "partitioner: {name: remote, server: server, network: wlan}\n"
                                        "workload: {kind: stream, rate_fps: 20, frames: 30, policy: queue}\n"
                                        "outputs: {frames_csv: true}\n");
}

}  // namespace

TEST_CASE("population: the shipped cell of eight phones writes users.csv and the population block") {
  const auto out = scratch_dir() / "cell";
  const auto r =
      run_cli("run " + kRoot + "/scenarios/populations/phones-one-cell.yaml --quiet --out " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  for (const char* variant : {"local", "remote", "jointdnn", "neurosurgeon"}) {
    INFO(variant);
    CHECK(lines_in(read_text(out / variant / "users.csv")) == 9);
    const auto p = results_of(out / variant)["population"];
    CHECK(p["users"] == 8);
    CHECK(p["jain_throughput"].get<double>() > 0.99);
  }
  // Offloading everything fills the shared cell; JointDNN's split sends less and keeps every user
  // within the deadline.
  CHECK(results_of(out / "jointdnn")["population"]["users_within_slo"] == 8);
  CHECK(results_of(out / "remote")["population"]["users_within_slo"].get<int>() < 8);
  CHECK(results_of(out / "remote")["latency_ms"]["p95"].get<double>() >
        2 * results_of(out / "remote")["analytic_latency_ms"].get<double>());
}

TEST_CASE("population: the same scenario and seed give the same users, another seed other phases") {
  const auto dir = scratch_dir() / "seeds";
  const auto s = kRoot + "/scenarios/populations/phones-one-cell.yaml --quiet --set 'compare=[]'";
  for (const char* run : {"a", "b"})
    REQUIRE(run_cli("run " + s + " --out " + (dir / run).string()).exit_code == 0);
  REQUIRE(run_cli("run " + s + " --set seed=4 --out " + (dir / "c").string()).exit_code == 0);
  CHECK(read_text(dir / "a" / "users.csv") == read_text(dir / "b" / "users.csv"));
  CHECK(read_text(dir / "a" / "users.csv") != read_text(dir / "c" / "users.csv"));
}

TEST_CASE("population: one user on the source's device gives the source run's frames byte for byte") {
  const auto dir = scratch_dir() / "one";
  REQUIRE(run_cli("run " + lenet_stream("src", "source: phone").string() + " --quiet --out " +
                  (dir / "src").string())
              .exit_code == 0);
  REQUIRE(run_cli("run " + lenet_stream("pop", "users: [{device: phone}]").string() + " --quiet --out " +
                  (dir / "pop").string())
              .exit_code == 0);
  CHECK(read_text(dir / "src" / "frames.csv") == read_text(dir / "pop" / "frames.csv"));
  const auto src = results_of(dir / "src"), pop = results_of(dir / "pop");
  for (const char* key : {"latency_ms", "energy_j", "bytes", "busy_s"}) CHECK(src[key] == pop[key]);
  CHECK(pop["population"]["users"] == 1);
  CHECK_FALSE(std::filesystem::exists(dir / "src" / "users.csv"));
}

TEST_CASE("population: dynamic batching lets an overloaded GPU server keep up") {
  const auto out = scratch_dir() / "batching";
  const auto r =
      run_cli("run " + kRoot + "/scenarios/populations/batching-server.yaml --quiet --out " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto alone = results_of(out / "one-at-a-time"), batched = results_of(out / "batching");
  CHECK_FALSE(alone.contains("batch_size_mean"));
  CHECK(batched["batch_size_mean"]["server"].get<double>() > 1.0);
  CHECK(batched["busy_s"]["server"].get<double>() < alone["busy_s"]["server"].get<double>());
  CHECK(batched["throughput_fps"].get<double>() > alone["throughput_fps"].get<double>());
  CHECK(batched["population"]["users_within_slo"].get<int>() >
        alone["population"]["users_within_slo"].get<int>());
  // Admission control drops what expired in the queue instead of letting the queue grow.
  const auto admission = results_of(out / "admission");
  CHECK(alone["dropped"] == 0);
  CHECK(admission["dropped"].get<int>() > 0);
  CHECK(admission["latency_ms"]["p95"].get<double>() < alone["latency_ms"]["p95"].get<double>());
}

TEST_CASE("population: a group's own partitioner parameters send its users to its own server") {
  const auto s = write_text("two_cells.yaml", R"(name: two-cells
model: lenet5
platform:
  devices:
    - {name: a, count: 2, calibration: )" + kRoot +
                                                  R"(/platforms/calibration/nexus5.json, role: phone}
    - {name: b, count: 3, calibration: )" + kRoot +
                                                  R"(/platforms/calibration/nexus5.json, role: phone}
    - {name: s1, calibration: )" + kRoot + R"(/platforms/calibration/gtx1080.json, role: server}
    - {name: s2, calibration: )" + kRoot + R"(/platforms/calibration/gtx1080.json, role: server}
  networks:
    - {name: w1, kind: wifi, members: [a, s1], rate_mbps: 20, latency_s: 0.005}
    - {name: w2, kind: wifi, members: [b, s2], rate_mbps: 20, latency_s: 0.005}
users:
  - {device: a}
  - {device: b, partitioner: {server: s2, network: w2}}
host_profile: {basis: estimate}
partitioner: {name: remote, server: s1, network: w1}
workload: {kind: stream, rate_fps: 2, frames: 4}
seed: 1
)");
  const auto out = scratch_dir() / "two";
  const auto r = run_cli("run " + s.string() + " --quiet --out " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto res = results_of(out);
  // Three users' uploads cross w2 and reach s2, two users' w1 and s1: the same frames each.
  CHECK(res["bytes"]["w1"].get<double>() > 0.0);
  CHECK(res["bytes"]["w2"].get<double>() == Approx(1.5 * res["bytes"]["w1"].get<double>()));
  CHECK(res["busy_s"]["s2"].get<double>() == Approx(1.5 * res["busy_s"]["s1"].get<double>()));
}

TEST_CASE("population: planning for the expected share of a crowded cell sends fewer bytes") {
  const auto dir = scratch_dir() / "share";
  const auto s = kRoot +
                 "/scenarios/populations/phones-one-cell.yaml --quiet --set 'compare=[]' "
                 "--set platform.devices[0].count=24 ";
  const auto full =
      run_cli("run " + s + "--set 'partitioner={name: neurosurgeon, cloud: server, network: wlan}' --out " +
              (dir / "full").string());
  const auto share = run_cli("run " + s +
                             "--set 'partitioner={name: neurosurgeon, cloud: server, network: wlan, "
                             "expected_share: true}' --out " +
                             (dir / "share").string());
  INFO(full.err << share.err);
  REQUIRE(full.exit_code == 0);
  REQUIRE(share.exit_code == 0);
  const auto a = results_of(dir / "full"), b = results_of(dir / "share");
  // At a 24th of the cell's rate the split moves towards the phone: less on the air.
  CHECK(b["bytes"]["wlan"].get<double>() < a["bytes"]["wlan"].get<double>());
  CHECK(b["population"]["users"] == 24);
}

TEST_CASE("population: each phone runs its own CBO, and alone on the server each does as one phone does") {
  const auto dir = scratch_dir() / "cbo";
  const auto s =
      kRoot +
      "/scenarios/populations/cbo-phones.yaml --quiet --set 'compare=[]' --set users[0].phase=aligned";
  REQUIRE(
      run_cli("run " + s + " --set platform.devices[0].count=1 --out " + (dir / "one").string()).exit_code ==
      0);
  const auto r = run_cli("run " + s + " --set platform.devices[0].count=2 --out " + (dir / "two").string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // Two phones on their own uplinks to a four-slot server never wait for each other: each user's
  // row is the single phone's, and so is the mean of their CBO summaries.
  const auto one = results_of(dir / "one"), two = results_of(dir / "two");
  CHECK(one["scheduler_metrics"] == two["scheduler_metrics"]);
  CHECK(one["scheduler_metrics"]["offload_fraction"].get<double>() > 0.1);
  const auto rows = read_text(dir / "two" / "users.csv");
  const auto first = rows.find('\n') + 1, second = rows.find('\n', first) + 1;
  const auto row = [&](std::size_t at) {  // a user's row without its user and device columns
    const auto line = rows.substr(at, rows.find('\n', at) - at);
    return line.substr(line.find(',', line.find(',') + 1));
  };
  CHECK(row(first) == row(second));
}

TEST_CASE("population: sixteen phones' CBO offloads overload the one server and its answers come back late") {
  const auto dir = scratch_dir() / "cbo16";
  const auto s = kRoot + "/scenarios/populations/cbo-phones.yaml --quiet --set 'compare=[]'";
  REQUIRE(
      run_cli("run " + s + " --set platform.devices[0].count=1 --out " + (dir / "one").string()).exit_code ==
      0);
  REQUIRE(run_cli("run " + s + " --set platform.devices[0].count=16 --out " + (dir / "many").string())
              .exit_code == 0);
  const auto one = results_of(dir / "one")["scheduler_metrics"],
             many = results_of(dir / "many")["scheduler_metrics"];
  // Each CBO decides on its own uplink, which the others do not touch: it offloads as much as
  // alone, but the server's queue (not in its model) makes the answers late.
  CHECK(many["offload_fraction"].get<double>() ==
        Approx(one["offload_fraction"].get<double>()).epsilon(1e-12));
  CHECK(one["deadline_misses"] == 0.0);
  CHECK(many["deadline_misses"].get<double>() > 100);
  CHECK(many["accuracy"].get<double>() < one["accuracy"].get<double>() - 0.1);
}
