// Timing the real training step at several minibatch sizes (AdaLearner's lookup table).
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/functional/step_timer.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

using namespace coinfer;

TEST_CASE("the training step is timed at every requested minibatch size, larger ones taking longer") {
  // digits_mlp: a step of 64 samples runs 64 forward and backward passes, one of 1 runs one; even on a
  // loaded host the larger step is slower (the per-sample work dominates the fixed update).
  const auto t = time_training_steps(build_zoo_model("digits_mlp"), {1, 64}, 3, 1);
  REQUIRE(t.size() == 2);
  CHECK(t[0].batch == 1);
  CHECK(t[1].batch == 64);
  CHECK(t[0].seconds > 0.0);
  CHECK(t[1].seconds > t[0].seconds);
}

TEST_CASE("bad minibatch sizes and repeat counts are refused, and so is a model that cannot train") {
  const Graph g = build_zoo_model("digits_mlp");
  CHECK_THROWS_WITH(time_training_steps(g, {}, 1, 1), Catch::Contains("at least one minibatch size"));
  CHECK_THROWS_WITH(time_training_steps(g, {4, 0}, 1, 1), Catch::Contains("batches[1]"));
  CHECK_THROWS_WITH(time_training_steps(g, {4}, 0, 1), Catch::Contains("repeats"));
  GraphBuilder b("pruned");  // a CSR fc layer has no backward kernel
  LayerAttrs sparse;
  sparse.units = 10;
  sparse.sparsity = 0.5;
  b.add("fc", OpKind::FullyConnected, {b.input("data", {64})}, sparse);
  CHECK_THROWS_WITH(time_training_steps(b.build(), {1}, 1, 1), Catch::Contains("has no backward kernel"));
}
