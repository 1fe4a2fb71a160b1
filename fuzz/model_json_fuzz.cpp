/// Model JSON (sim/graph/graph_json): parse + shape inference. An accepted model must export and
/// re-import to the same JSON (README: "export and import round-trip exactly") and summarise.
#include "fuzz/fuzz_support.hpp"
#include "sim/graph/graph_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  fuzz::accept_or_reject([&] {
    const Graph graph = graph_from_json(parse_json_text(fuzz::as_text(data, size), "fuzz-model.json"));
    const Json exported = graph_to_json(graph);
    Graph again;
    try {
      again = graph_from_json(exported);
    } catch (const Error& e) {
      std::fprintf(stderr, "fuzz: exported model does not re-import: %s\n", e.what());
      fuzz::check(false, "graph_from_json(graph_to_json(g)) throws");
    }
    fuzz::check(graph_to_json(again) == exported, "graph_to_json(graph_from_json(graph_to_json(g))) differs");
    (void)graph_summary_json(graph).dump();
  });
  return 0;
}
