/// Platform YAML (sim/platform/platform_yaml): YAML to JSON, then platform_from_json with relative
/// calibration and trace files resolved against the shipped platforms/ folder (so
/// `calibration/nexus5.json` loads the real file), then the routes the networks imply between the
/// first 64 devices. The same
/// bytes also go through the bandwidth trace parser (`bandwidth: {model: trace, file: ...}`).
#include <algorithm>

#include "fuzz/fuzz_support.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/platform/topology.hpp"
#include "sim/scenario/yaml_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  static const std::string base_dir = fuzz::source_dir() + "/platforms";
  const std::string text = fuzz::as_text(data, size);
  fuzz::accept_or_reject([&] { (void)parse_bandwidth_trace(text, "fuzz-trace.txt"); });
  fuzz::accept_or_reject([&] {
    const Json doc = yaml_to_json(text, "fuzz-platform.yaml");
    const Platform platform = platform_from_json(doc, "fuzz-platform.yaml", base_dir);
    const Topology topology(platform);
    // Routes are built per pair when asked for; the first 64 devices' pairs keep an input of many
    // devices (count up to 16384) fast.
    const std::size_t n = std::min<std::size_t>(platform.devices.size(), 64);
    for (std::size_t net = 0; net < platform.networks.size(); ++net)
      for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b)
          if (const Route* route = topology.route_or_null(net, a, b))
            (void)topology.nominal_transfer_s(*route, 1e6);
  });
  return 0;
}
