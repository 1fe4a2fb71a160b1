// Training scenarios with a measured host profile cost the backward layers with the backward /
// forward ratio this host's real kernels gave (`coinfer profile --backward`), not the estimate's.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "partitioners/builtin.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/models/zoo.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/profile/backward_estimate.hpp"
#include "sim/profile/backward_profiler.hpp"
#include "sim/profile/profiler.hpp"
#include "sim/scenario/scenario.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;

TEST_CASE("a measured training scenario costs backward layers with the measured backward ratio") {
  // LeNet-5 trained mobile-only on the TX2: the plan's compute is forward + backward there.
  const auto file = coinfer::test::scratch_dir() / "training_measured.yaml";
  std::ofstream(file)
      << "model: lenet5\nplatform: " << COINFER_SOURCE_DIR
      << "/platforms/jointdnn_tx2_k40.yaml\nhost_profile: {basis: measured, repeats: 3}\n"
         "partitioner: {name: jointdnn, network: wifi, mode: training, solver: mobile-only}\n";
  PartitionerRegistry registry("partitioner");
  register_builtin_partitioners(registry);
  const ScenarioPlan planned = partition_scenario(load_scenario(file.string(), {}), registry);
  double compute_s = 0.0;
  for (const Task& t : planned.plan.tasks)
    if (t.kind == TaskKind::Compute) compute_s += t.duration_s;

  // Expected from the cached profiles the scenario used (same model, options and host).
  const Graph g = build_zoo_model("lenet5");
  ProfileOptions options;
  options.repeats = 3;
  const HostProfile fwd = profile_model(g, options), bwd = profile_backward(g, options);
  const CostModel forward(g, fwd);  // normalised to the calibrations' basis
  const Platform platform =
      load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/jointdnn_tx2_k40.yaml");
  const DeviceCalibration& tx2 = platform.devices[platform.device_index("tx2")].calibration;
  const std::size_t last = g.size() - 1;
  const auto backward_s = [&](const std::optional<MeasuredBackwardRatio>& ratio) {
    return CostModel(g, backward_profile_of(g, forward.profile(), ratio), MeasuredProfile::AsMeasured)
        .range_time_s(1, last, tx2, false);
  };
  const double measured = backward_s(MeasuredBackwardRatio{fwd, bwd});
  CHECK(compute_s == Approx(forward.range_time_s(1, last, tx2, false) + measured).epsilon(1e-9));
  // The estimate's ratio gives another cost (LeNet's fc backward is far from 2x on real kernels).
  CHECK(std::abs(measured / backward_s(std::nullopt) - 1.0) > 0.01);
}
