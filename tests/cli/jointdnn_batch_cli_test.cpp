// `batch: B` in a scenario end to end: with a measured host profile the scenario gives the
// partitioner the batch-B costs of the real batched kernels, and the replay takes their latency.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using nlohmann::json;

namespace {

// LeNet-5 mobile-only on the TX2 at batch B, host profile measured with the batched kernels.
json mobile_only_at(int batch) {
  const auto name = "jointdnn_batch" + std::to_string(batch);
  const auto s =
      write_text(name + ".yaml", "model: lenet5\nplatform: " + std::string(COINFER_SOURCE_DIR) +
                                     "/platforms/jointdnn_tx2_k40.yaml\n"
                                     "host_profile: {basis: measured, repeats: 3}\n"
                                     "partitioner: {name: jointdnn, network: 4g, solver: mobile-only, "
                                     "batch: " +
                                     std::to_string(batch) + "}\n");
  const auto out = scratch_dir() / name;
  const auto r = run_cli("run " + s.string() + " --out " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(read_text(out / "results.json"));
}

}  // namespace

TEST_CASE("a measured scenario at batch B costs the batched kernels and replays their latency") {
  const json one = mobile_only_at(1), four = mobile_only_at(4);
  for (const json* j : {&one, &four})
    CHECK((*j)["latency_ms"]["mean"].get<double>() ==
          Approx((*j)["analytic_latency_ms"].get<double>()).epsilon(1e-9));
  // Four inputs take longer than one on the TX2 (the kernels ran four samples per call).
  CHECK(four["busy_s"]["tx2"].get<double>() > one["busy_s"]["tx2"].get<double>());
}
