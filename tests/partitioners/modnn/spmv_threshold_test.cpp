#include "partitioners/modnn/spmv_threshold.hpp"

#include <cmath>
#include <random>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

TEST_CASE("spmv threshold: eq. 2.2 on pure slopes gives the slope ratio", "[modnn][spmv]") {
  // SPT(n) = a n, GET(r,c) = g r c: SPT^-1(GET) = g r c / a, Thld = g / a. With SpMV 1/0.158 times
  // slower per element than GEMV this is the dissertation's 15.8% (sec. 2.3.1) for every block size.
  const SpmvTimeFit spt{0.0, 1e-9 / 0.158};
  const GemvTimeFit get{0.0, 1e-9};
  CHECK(spmv_density_threshold(spt, get, 4096, 4096) == Approx(0.158));
  CHECK(spmv_density_threshold(spt, get, 10, 1000) == Approx(0.158));
  CHECK(spmv_sparsity_threshold(spt, get, 64, 64) == Approx(0.842));
}

TEST_CASE("spmv threshold: intercepts make the threshold size dependent", "[modnn][spmv]") {
  // SPT(n) = 1e-3 + 2e-8 n, GET(r,c) = 5e-4 + 1e-9 r c. At 1000 x 1000: GET = 1.5e-3,
  // n* = (1.5e-3 - 1e-3) / 2e-8 = 25000, Thld = 25000 / 1e6 = 0.025.
  const SpmvTimeFit spt{1e-3, 2e-8};
  const GemvTimeFit get{5e-4, 1e-9};
  CHECK(spmv_density_threshold(spt, get, 1000, 1000) == Approx(0.025));
  // At 100 x 100: GET = 5.1e-4 < SPT(0) = 1e-3 -> n* < 0, clamped to 0: always GEMV.
  CHECK(spmv_density_threshold(spt, get, 100, 100) == 0.0);
  CHECK(choose_matvec(spt, get, 100, 100, 0) == MatVecKind::Gemv);
  // A very slow GEMV clamps the threshold at 1: always SpMV (except a full matrix at equality).
  CHECK(spmv_density_threshold({0, 1e-9}, {0, 1e-6}, 10, 10) == 1.0);
  // Per-row / per-column GEMV terms: GET(2,3) = 2*1e-6 + 3*1e-6 = 5e-6; n* = 5e-6/1e-6 = 5; 5/6.
  CHECK(spmv_density_threshold({0, 1e-6}, {0, 0, 1e-6, 1e-6}, 2, 3) == Approx(5.0 / 6.0));
}

TEST_CASE("spmv threshold: the choice follows the threshold and picks the faster kernel", "[modnn][spmv]") {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 1000; ++trial) {
    const SpmvTimeFit spt{u(rng) * 1e-3, 1e-9 + u(rng) * 1e-8};
    const GemvTimeFit get{u(rng) * 1e-3, 1e-10 + u(rng) * 2e-9, u(rng) * 1e-8, u(rng) * 1e-8};
    const auto r = std::int64_t(1 + u(rng) * 2000), c = std::int64_t(1 + u(rng) * 2000);
    const auto nnz = std::int64_t(u(rng) * double(r * c));
    const double density = double(nnz) / double(r * c);
    const auto kind = choose_matvec(spt, get, r, c, nnz);
    // "When the sparsity is larger than Thld, SpMV; otherwise GEMV" (sec. 5.1), in density terms.
    CHECK((kind == MatVecKind::Spmv) == (density < spmv_density_threshold(spt, get, r, c)));
    CHECK((kind == MatVecKind::Spmv) == (1.0 - density > spmv_sparsity_threshold(spt, get, r, c)));
    // Away from the tie the choice is the faster kernel.
    const double ts = spmv_time_s(spt, nnz), tg = gemv_time_s(get, r, c);
    if (std::fabs(ts - tg) > 1e-9 * std::max(ts, tg)) CHECK((kind == MatVecKind::Spmv) == (ts < tg));
    CHECK(matvec_time_s(spt, get, r, c, nnz) == (kind == MatVecKind::Spmv ? ts : tg));
  }
}

TEST_CASE("spmv threshold: exactly at the threshold GEMV is used", "[modnn][spmv]") {
  // Thld = 0.25 exactly (1e-9 / 4e-9); 4 x 4 block with 4 non-zeros has density 0.25: GEMV.
  const SpmvTimeFit spt{0.0, 4e-9};
  const GemvTimeFit get{0.0, 1e-9};
  CHECK(spmv_density_threshold(spt, get, 4, 4) == 0.25);
  CHECK(choose_matvec(spt, get, 4, 4, 4) == MatVecKind::Gemv);
  CHECK(choose_matvec(spt, get, 4, 4, 3) == MatVecKind::Spmv);
}

TEST_CASE("spmv threshold: bad regressions and blocks throw", "[modnn][spmv]") {
  CHECK_THROWS_AS(spmv_density_threshold({0, 0}, {0, 1e-9}, 4, 4), Error);
  CHECK_THROWS_AS(spmv_density_threshold({0, -1e-9}, {0, 1e-9}, 4, 4), Error);
  CHECK_THROWS_AS(spmv_density_threshold({0, 1e-9}, {0, NAN}, 4, 4), Error);
  CHECK_THROWS_AS(spmv_density_threshold({0, 1e-9}, {0, 1e-9}, 0, 4), Error);
  CHECK_THROWS_AS(choose_matvec({0, 1e-9}, {0, 1e-9}, 4, 4, 17), Error);
  CHECK_THROWS_AS(choose_matvec({0, 1e-9}, {0, 1e-9}, 4, 4, -1), Error);
}
