/// ONNX model files (sim/onnx): protobuf parse, checker, ONNX shape inference and the mapping to the
/// graph IR. An accepted model must be an inferred graph whose stored weights match its layers (each
/// weighted layer's arrays hold what its kernels take), and must export to a model JSON that
/// re-imports to the same JSON.
#include "fuzz/fuzz_support.hpp"
#include "sim/graph/graph_json.hpp"
#include "sim/kernels/layer_runner.hpp"
#include "sim/onnx/onnx_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  fuzz::accept_or_reject([&] {
    const Graph graph = import_onnx_bytes(fuzz::as_text(data, size), "fuzz-model.onnx");
    fuzz::check(graph.inferred(), "an imported graph is inferred");
    if (const StoredWeights* stored = graph.stored_weights()) {
      for (const auto& [name, weights] : *stored) {
        const Layer& l = graph.layer_by_name(name);
        const Layer& in = graph.layer_by_name(l.inputs.at(0));
        if (shape_elements(in.output_shape) + l.params > (std::int64_t{1} << 22))
          continue;  // keep runs small
        try {
          (void)kernels::weights_from_stored(l, in.output_shape, weights);
        } catch (const Error& e) {
          std::fprintf(stderr, "fuzz: stored weights do not fit layer '%s': %s\n", name.c_str(), e.what());
          fuzz::check(false, "weights_from_stored on an imported layer throws");
        }
      }
    }
    const Json exported = graph_to_json(graph);
    fuzz::check(graph_to_json(graph_from_json(exported)) == exported, "model JSON round trip differs");
  });
  return 0;
}
