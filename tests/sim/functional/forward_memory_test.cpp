// The bytes a host forward pass holds, checked before anything is allocated.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/functional/forward_pass.hpp"
#include "sim/graph/graph_builder.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

// data [4] -> fc1 (8 units) -> fc2 (2 units)
Graph two_fc() {
  GraphBuilder b("two_fc");
  b.fc(b.fc(b.input("data", {4}), "fc1", 8), "fc2", 2);
  return b.build();
}

}  // namespace

TEST_CASE("forward memory: fp32 weights plus the peak of live activations") {
  // weights: fc1 4*8 + 8 = 40, fc2 8*2 + 2 = 18 parameters: 58 x 4 = 232 bytes.
  // activations: data 16 B; fc1 runs with data alive: 16 + 32 = 48 (the peak), then data is freed;
  // fc2 runs with fc1 alive: 32 + 8 = 40. No conv, no scratch: 232 + 48 = 280 bytes.
  const ForwardMemory m = forward_pass_memory(two_fc());
  CHECK(m.weight_bytes == 232);
  CHECK(m.activation_bytes == 48);
  CHECK(m.scratch_bytes == 0);
  CHECK(m.total_bytes() == 280);
  CHECK(m.largest_layer == 1);  // fc1 holds 160 B of weights + 32 B of output
  CHECK(m.largest_layer_bytes == 192);
}

TEST_CASE("forward memory: a conv2d's im2col scratch counts") {
  // 3x8x8 -> conv 3x3, 4 channels, no padding: 6x6 output; columns (3*3*3) x 36 floats = 3888 bytes
  GraphBuilder b("conv");
  b.conv(b.input("x", {3, 8, 8}), "c", 4, 3);
  CHECK(forward_pass_memory(b.build()).scratch_bytes == 27 * 36 * 4);
}

TEST_CASE("forward memory: a model over the limit is an InputError naming the largest layer") {
  CHECK_NOTHROW(check_forward_pass_memory(two_fc(), 280));
  CHECK_THROWS_WITH(
      check_forward_pass_memory(two_fc(), 279),
      Contains("layers[1]: model 'two_fc' needs 280 bytes") && Contains("'fc1' (fc) holds 192 bytes"));
}

TEST_CASE("forward memory: the host's physical memory is known and positive") {
  CHECK(host_memory_bytes() > 0);
}
