// JointDNN's PNG activation compression on the wire (sec. 4.2): sizes from the real kernel on real
// activations, the raw weights file, and the scenario problem and plan that carry them.
#include "partitioners/jointdnn/png_wire.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "partitioners/jointdnn/scenario_problem.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/kernels/png_compress.hpp"
#include "tests/partitioners/jointdnn/replay_check.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using Catch::Matchers::Contains;

namespace {

// data 3x32x32 -> conv1 8x32x32 -> relu1 -> pool1 8x16x16 -> conv2 16x16x16 -> relu2 -> fc 10.
/// Options with one kernel timing (the tests do not look at the times).
PngWireOptions quick(std::uint64_t seed, const std::string& weights_file = "",
                     const std::string& weights_key = "weights", std::optional<double> zero_ratio = {},
                     const std::string& zero_ratio_key = "relu_zero_ratio") {
  PngWireOptions o;
  o.seed = seed;
  o.weights_file = weights_file;
  o.weights_key = weights_key;
  o.repeats = 1;
  o.relu_zero_ratio = zero_ratio;
  o.zero_ratio_key = zero_ratio_key;
  return o;
}

Graph small_cnn() {
  GraphBuilder b("small_cnn");
  auto x = b.input("data", {3, 32, 32});
  x = b.conv(x, "conv1", 8, 3, 1, 1);
  x = b.relu(x, "relu1");
  x = b.max_pool(x, "pool1", 2, 2);
  x = b.conv(x, "conv2", 16, 3, 1, 1);
  x = b.relu(x, "relu2");
  b.fc(x, "fc", 10);
  return b.build();
}

/// Writes `fp`'s dense weights in the raw format (png_wire.hpp), each value times `factor`.
void write_raw_weights(const ForwardPass& fp, const std::string& path, float factor) {
  std::ofstream out(path, std::ios::binary);
  const auto put = [&](const std::vector<float>& v) {
    for (float x : v) {
      const float y = x * factor;
      out.write(reinterpret_cast<const char*>(&y), 4);
    }
  };
  for (auto i : fp.graph().topological_order()) {
    const auto& w = fp.weights(i);
    put(w.weight.data);
    put(w.bias.data);
    for (const auto* v :
         {&w.batch_norm.scale, &w.batch_norm.shift, &w.batch_norm.mean, &w.batch_norm.variance})
      put(*v);
  }
}

std::string temp_file(const std::string& name) { return (coinfer::test::scratch_dir() / name).string(); }

}  // namespace

TEST_CASE("png on the wire: conv-shaped outputs are compressed losslessly at the size the kernel gives") {
  const Graph g = small_cnn();
  const auto wire = measure_png_wire(g, quick(7));
  const ForwardPass fp(g, 7);
  const auto acts = fp.run(fp.make_inputs(7));
  const auto& order = fp.graph().topological_order();
  REQUIRE(wire.size() == order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const Tensor& x = acts[order[k]];
    INFO(wire[k].name);
    CHECK(wire[k].compressed == (x.rank() == 3));  // the fc output (10 values) is sent raw
    if (!wire[k].compressed) continue;
    const auto png = kernels::png_compress(x);
    CHECK(wire[k].png_bytes == static_cast<double>(png.size_bytes()));
    CHECK(wire[k].ratio_vs_8bit ==
          Approx(static_cast<double>(x.size()) / static_cast<double>(png.png.size())));
    // Lossless on the 8-bit levels: decoding gives every value back within half a step.
    const Tensor back = kernels::png_decompress(png);
    REQUIRE(back.data.size() == x.data.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < x.data.size(); ++i)
      worst = std::max(worst, static_cast<double>(std::fabs(back.data[i] - x.data[i])));
    CHECK(worst <= png.step() / 2 * 1.0001);
    CHECK(wire[k].compress_host_s > 0.0);
    CHECK(wire[k].decompress_host_s > 0.0);
  }
  // ReLU zeroes about half of a zero-mean pre-activation: ZR of relu1 in (0.2, 0.8), conv1 ~ 0.
  CHECK(wire[2].zero_ratio > 0.2);
  CHECK(wire[2].zero_ratio < 0.8);
  CHECK(wire[1].zero_ratio < 0.01);
}

TEST_CASE("a raw weights file replaces the seeded weights") {
  const Graph g = small_cnn();
  const ForwardPass fp(g, 3);
  const auto same = temp_file("same.bin");
  write_raw_weights(fp, same, 1.0f);
  // The seed-3 weights read back from the file give the seed-3 ratios exactly.
  const auto seeded = measure_png_wire(g, quick(3));
  const auto read = measure_png_wire(g, quick(3, same));
  for (std::size_t k = 0; k < seeded.size(); ++k) CHECK(read[k].png_bytes == seeded[k].png_bytes);
  // All-zero weights: every activation after conv1 is zero (ZR = 1).
  const auto zeros = temp_file("zeros.bin");
  write_raw_weights(fp, zeros, 0.0f);
  const auto dead = measure_png_wire(g, quick(3, zeros));
  CHECK(dead[1].zero_ratio == 1.0);
  CHECK(dead[4].zero_ratio == 1.0);
  std::filesystem::remove(same);
  std::filesystem::remove(zeros);
}

TEST_CASE("png on the wire: a relu zero ratio zeroes that fraction of every channel of every conv relu") {
  const Graph g = small_cnn();
  ForwardPass fp(g, 7);
  auto acts = fp.run(fp.make_inputs(7));
  set_relu_zero_ratio(fp, acts, 0.8, "relu_zero_ratio");
  for (const char* name : {"relu1", "relu2"}) {
    const Tensor& x = acts[static_cast<std::size_t>(fp.graph().index_of(name))];
    const auto plane = static_cast<std::size_t>(x.dim(1) * x.dim(2));
    const auto k = static_cast<std::ptrdiff_t>(std::llround(0.8 * double(plane)));
    for (std::int64_t c = 0; c < x.dim(0); ++c) {
      const auto first = x.data.begin() + static_cast<std::ptrdiff_t>(c * plane);
      const auto zeros = std::count(first, first + static_cast<std::ptrdiff_t>(plane), 0.0f);
      INFO(name << " channel " << c);
      CHECK(std::abs(zeros - k) <= 1);  // the k-th smallest lands on 0 up to one rounding
    }
  }
  // The same through measure_png_wire; sparser activations compress better (the paper's Fig. 14).
  const auto half = measure_png_wire(g, quick(7, "", "weights", 0.5));
  const auto most = measure_png_wire(g, quick(7, "", "weights", 0.9));
  CHECK(half[2].zero_ratio == Approx(0.5).margin(0.01));
  CHECK(most[2].zero_ratio == Approx(0.9).margin(0.01));
  CHECK(most[2].ratio_vs_8bit > 1.5 * half[2].ratio_vs_8bit);
}

TEST_CASE("png on the wire: a zero ratio outside (0, 1), or a relu with no bias before it, is refused") {
  const Graph g = small_cnn();
  CHECK_THROWS_WITH(measure_png_wire(g, quick(7, "", "weights", 1.0, "partitioner.relu_zero_ratio")),
                    Contains("partitioner.relu_zero_ratio: expected a zero ratio in (0, 1), got 1"));
  GraphBuilder b("pool_relu");
  auto x = b.input("data", {3, 16, 16});
  x = b.conv(x, "conv1", 4, 3, 1, 1);
  x = b.max_pool(x, "pool1", 2, 2);
  b.relu(x, "relu1");
  CHECK_THROWS_WITH(measure_png_wire(b.build(), quick(7, "", "weights", 0.7)),
                    Contains("relu 'relu1' follows 'pool1' (max_pool), which has no bias or shift to lower"));
}

TEST_CASE("a raw weights file of the wrong size names the expected byte count") {
  const auto path = temp_file("short.bin");
  std::ofstream(path, std::ios::binary) << "abcd";
  // conv1 8x3x3x3 + 8 = 224, conv2 16x8x3x3 + 16 = 1168, fc 10x4096 + 10 = 40970: 42,362 floats.
  CHECK_THROWS_WITH(measure_png_wire(small_cnn(), quick(1, path, "partitioner.weights_file")),
                    Contains("partitioner.weights_file: expected 169448 bytes (42362 float32 parameters of "
                             "model 'small_cnn'), got 4"));
  std::filesystem::remove(path);
}

// With compression: png every crossing of a conv-shaped output carries the PNG's bytes and pays
// compress + transfer + decompress; the plan's replay costs exactly what the problem says.
TEST_CASE("png crossings: the wire carries the PNG size and the replay equals the problem") {
  const testing::Tx2K40 f(small_cnn());
  ScenarioSetup setup;
  setup.network = "4g_rrc";
  setup.png = true;
  setup.seed = 7;
  const auto sp = build_scenario_problem(f.ctx, setup);
  const auto wire = measure_png_wire(f.graph, quick(7));
  const int n = sp.problem.layers;
  for (int j = 0; j <= n; ++j)
    CHECK(sp.wire_bytes[j] == (wire[j].compressed ? wire[j].png_bytes : wire[j].raw_bytes));
  const int a = GENERATE(0, 2, 3);  // send the input, relu1's or pool1's output up
  std::vector<Group> groups;
  if (a > 0) groups.push_back({1, a, Side::mobile});
  groups.push_back({a + 1, n, Side::cloud});
  const Solution s = make_solution(sp.problem, groups);
  const Plan plan = plan_of_schedule(f.ctx, sp, s, "jointdnn");
  const auto up = std::find_if(plan.tasks.begin(), plan.tasks.end(),
                               [](const Task& t) { return t.kind == TaskKind::Transfer && t.dst == "k40"; });
  REQUIRE(up != plan.tasks.end());
  CHECK(up->bytes == sp.wire_bytes[a]);
  CHECK(std::any_of(plan.tasks.begin(), plan.tasks.end(),
                    [](const Task& t) { return t.id.rfind("zip-", 0) == 0; }));
  testing::check_replay(f, sp, s, sp.wake_up_s);
}
