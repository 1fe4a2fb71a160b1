// FC layer splits with the hybrid SpMV / GEMV choice and the partial-layer cost helpers.
#include "partitioners/modnn/fc_split.hpp"

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

TEST_CASE("modnn fc: a block sparser than Thld runs as SpMV, a denser one as GEMV", "[modnn][fc]") {
  const FcRates r{1e-9, 1e-9 / 0.158, 0.158};  // SPT = GET at density 15.8% (Nexus 5, sec. 7.1)
  FcBlock sparse, dense;
  sparse.nonzeros = 100;  // density 100 / 1000 = 10% < 15.8%
  dense.nonzeros = 200;   // 20% >= 15.8%
  cost_block(sparse, 100, 10, r);
  cost_block(dense, 100, 10, r);
  CHECK(sparse.kind == MatVecKind::Spmv);
  CHECK(sparse.time_s == Approx(100 * 1e-9 / 0.158));
  CHECK(dense.kind == MatVecKind::Gemv);
  CHECK(dense.time_s == Approx(1000 * 1e-9));
}

TEST_CASE("modnn fc: dense fc-1d splits VGG FC6 rows and sends inputs plus all outputs", "[modnn][fc]") {
  const FcRates r{1e-9, 0.0, 0.0};
  const auto s = split_fc_layer({25088, 4096, 0.0, 1}, FcMethod::Fc1d, {1, 1, 1, 1}, r, r, 43.8e6, 4);
  REQUIRE(s.workers.size() == 4);
  CHECK(s.workers[0].input_rows.size() == 6272);  // 25088 / 4 rows (the longer side)
  CHECK(s.workers[0].output_values == 4096);
  CHECK(s.transfer_values == 25088 + 4 * 4096);
  CHECK(s.go.nonzeros == 0);
}

TEST_CASE("modnn fc: MSCC + FGCP places every generated non-zero exactly once", "[modnn][fc]") {
  const FcRates r{1e-9, 1e-9 / 0.158, 0.158};
  const FcLayerSpec layer{400, 200, 0.9, 5};
  const auto base = split_fc_layer(layer, FcMethod::Fc1d, {1, 1, 1, 1}, r, r, 43.8e6, 4);
  const auto mscc = split_fc_layer(layer, FcMethod::MsccFgcp, {1, 1, 1, 1}, r, r, 43.8e6, 4);
  std::int64_t nnz = mscc.go.nonzeros;
  for (const auto& b : mscc.workers) nnz += b.nonzeros;
  CHECK(nnz == 400 * 20);  // every non-zero placed once (each row keeps 10% of 200)
  std::int64_t values = 0;
  for (const auto& b : mscc.workers)
    values += static_cast<std::int64_t>(b.input_rows.size()) + b.output_values;
  CHECK(mscc.transfer_values == values);
  CHECK(base.transfer_values > 0);
}

TEST_CASE("modnn fc: MSCC + FGCP on a dense layer is refused", "[modnn][fc]") {
  const FcRates r{1e-9, 1e-8, 0.1};
  CHECK_THROWS_AS(split_fc_layer({40, 20, 0.0, 1}, FcMethod::MsccFgcp, {1, 1}, r, r, 1e6, 4), Error);
}

TEST_CASE(
    "modnn fc: on perfect planted blocks MSCC + FGCP sends every input and output once, "
    "fc-1d every input once and every output k times",
    "[modnn][fc]") {
  // 4 hidden blocks, in-block weights 1000x wider: pruning keeps only in-block weights. The
  // reduction over fc-1d is then the closed form 1 - (R + C) / (R + kC), whatever the sparsity:
  // the ceiling Fig. 2.10's claims meet with the fc-1d baseline cut along the longer side.
  const FcRates r{1e-9, 1e-9 / 0.158, 0.158};
  const FcLayerSpec layer{600, 200, 0.9, 5, 4, 1000.0};
  const auto base = split_fc_layer(layer, FcMethod::Fc1d, {1, 1, 1, 1}, r, r, 43.8e6, 4);
  const auto mscc = split_fc_layer(layer, FcMethod::MsccFgcp, {1, 1, 1, 1}, r, r, 43.8e6, 4);
  CHECK(mscc.go.nonzeros == 0);
  CHECK(mscc.transfer_values == 600 + 200);
  CHECK(base.transfer_values == 600 + 4 * 200);
}
