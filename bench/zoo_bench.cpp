// Model zoo benchmark: building + shape-inferring ResNet-152 and the whole zoo, and the JSON model
// format's export and import of ResNet-152. After the runs it prints per-layer times and the cost of
// each JSON step relative to building the same model (CPU times), all measured in this run.
//
//     ./build/bench/zoo_bench
#include <cstdio>
#include <map>
#include <string>

#include <benchmark/benchmark.h>

#include "sim/graph/graph_json.hpp"
#include "sim/models/zoo.hpp"

namespace {

using coinfer::Graph;

std::size_t zoo_layer_count() {
  std::size_t n = 0;
  for (const auto& e : coinfer::zoo()) n += e.build().size();
  return n;
}

void BM_BuildResNet152(benchmark::State& state) {
  std::size_t layers = 0;
  for (auto _ : state) {
    Graph g = coinfer::make_resnet152();  // GraphBuilder + Graph::infer (shape inference)
    layers = g.size();
    benchmark::DoNotOptimize(g);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(layers));
  state.counters["layers"] = static_cast<double>(layers);
}

void BM_BuildWholeZoo(benchmark::State& state) {
  const auto layers = zoo_layer_count();
  for (auto _ : state)
    for (const auto& e : coinfer::zoo()) {
      Graph g = e.build();
      benchmark::DoNotOptimize(g);
    }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(layers));
  state.counters["models"] = static_cast<double>(coinfer::zoo().size());
  state.counters["layers"] = static_cast<double>(layers);
}

// Graph -> canonical JSON text, as `coinfer model export` does.
void BM_JsonExportResNet152(benchmark::State& state) {
  const Graph g = coinfer::make_resnet152();
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string text = coinfer::graph_to_json(g).dump();
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
  state.counters["json_bytes"] = static_cast<double>(bytes);
}

// JSON text -> checked, shape-inferred Graph, as loading a model file does.
void BM_JsonImportResNet152(benchmark::State& state) {
  const std::string text = coinfer::graph_to_json(coinfer::make_resnet152()).dump();
  for (auto _ : state) {
    Graph g = coinfer::graph_from_json(coinfer::Json::parse(text));
    benchmark::DoNotOptimize(g);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

BENCHMARK(BM_BuildResNet152)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BuildWholeZoo)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JsonExportResNet152)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JsonImportResNet152)->Unit(benchmark::kMicrosecond);

// Console output plus the CPU time per iteration (microseconds) of every benchmark: all of them are
// single-threaded, and CPU time is steadier than wall time on a shared machine.
class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  RecordingReporter() : ConsoleReporter(OO_Tabular) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs)
      if (r.run_type == Run::RT_Iteration && !r.error_occurred)
        time_us[r.benchmark_name()] = r.GetAdjustedCPUTime();
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> time_us;
};

void print_ratios(const std::map<std::string, double>& t) {
  auto get = [&](const char* name) {
    const auto it = t.find(name);
    return it == t.end() ? 0.0 : it->second;
  };
  const double build = get("BM_BuildResNet152"), zoo = get("BM_BuildWholeZoo");
  const double exp = get("BM_JsonExportResNet152"), imp = get("BM_JsonImportResNet152");
  if (build <= 0) return;
  const double resnet_layers = static_cast<double>(coinfer::make_resnet152().size());
  std::printf("\nresnet152 build + shape inference: %.1f us (%.3f us per layer, %.0f layers)\n", build,
              build / resnet_layers, resnet_layers);
  if (zoo > 0) {
    const double layers = static_cast<double>(zoo_layer_count());
    std::printf("whole zoo (%zu models): %.1f us (%.3f us per layer) = %.2fx resnet152\n",
                coinfer::zoo().size(), zoo, zoo / layers, zoo / build);
  }
  if (exp > 0) std::printf("resnet152 JSON export: %.1f us = %.2fx its build\n", exp, exp / build);
  if (imp > 0)
    std::printf("resnet152 JSON import (parse + validate + infer): %.1f us = %.2fx its build\n", imp,
                imp / build);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RecordingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  print_ratios(reporter.time_us);
  return 0;
}
