// GEMM / GEMV of every instruction-set variant the host supports, single- and multi-threaded,
// against a naive triple loop.
#include <catch2/catch.hpp>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/gemm.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

std::vector<KernelIsa> supported_isas() {
  std::vector<KernelIsa> out;
  for (auto isa : {KernelIsa::Generic, KernelIsa::Avx2, KernelIsa::Avx512})
    if (isa_supported(isa)) out.push_back(isa);
  return out;
}

// Restores the default settings when a test ends.
struct SettingsGuard {
  KernelIsa isa = kernel_isa();
  int threads = kernel_threads();
  ~SettingsGuard() {
    set_kernel_isa(isa);
    set_kernel_threads(threads);
  }
};

}  // namespace

TEST_CASE("gemm matches the naive product for every variant and thread count", "[kernels][gemm]") {
  SettingsGuard guard;
  std::mt19937_64 rng(11);
  for (auto isa : supported_isas()) {
    set_kernel_isa(isa);
    for (int threads : {1, 3}) {
      set_kernel_threads(threads);
      for (int trial = 0; trial < 30; ++trial) {
        const auto m = test::draw(rng, 1, 40), n = test::draw(rng, 1, 300), k = test::draw(rng, 1, 60);
        const bool acc = trial % 3 == 0;
        const Tensor a = random_normal({m, k}, rng()), b = random_normal({k, n}, rng());
        Tensor c = random_normal({m, n}, rng());
        Tensor ref = acc ? c : Tensor({m, n});
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t j = 0; j < n; ++j) {
            double s = 0.0;
            for (std::int64_t p = 0; p < k; ++p)
              s += static_cast<double>(a.data[i * k + p]) * b.data[p * n + j];
            ref.data[i * n + j] += static_cast<float>(s);
          }
        gemm(a.ptr(), b.ptr(), c.ptr(), m, n, k, acc);
        // fp32 dot products of <= 60 N(0,1) terms: error ~ sqrt(k) * 6e-8 * |terms|, far below 1e-4.
        INFO("isa " << isa_name(isa) << " threads " << threads << " m n k " << m << " " << n << " " << k);
        CHECK(test::max_rel_error(c, ref) < 1e-4);
      }
    }
  }
}

TEST_CASE("gemv matches the naive product", "[kernels][gemm]") {
  SettingsGuard guard;
  std::mt19937_64 rng(12);
  for (auto isa : supported_isas()) {
    set_kernel_isa(isa);
    for (int trial = 0; trial < 20; ++trial) {
      const auto m = test::draw(rng, 1, 70), n = test::draw(rng, 1, 90);
      const Tensor a = random_normal({m, n}, rng()), x = random_normal({n}, rng());
      Tensor y({m}), ref({m});
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) ref.data[i] += a.data[i * n + j] * x.data[j];
      gemv(a.ptr(), x.ptr(), y.ptr(), m, n);
      CHECK(test::max_rel_error(y, ref) < 1e-4);
    }
  }
}

TEST_CASE("kernel settings reject bad values and show in the build id", "[kernels][gemm]") {
  SettingsGuard guard;
  CHECK(kernel_threads() >= 1);
  CHECK_THROWS_AS(set_kernel_threads(0), Error);
  CHECK_THROWS_AS(set_kernel_threads(1000), Error);
  set_kernel_threads(2);
  CHECK(kernel_build_id().find("threads 2") != std::string::npos);
  CHECK(isa_supported(KernelIsa::Generic));
  CHECK(kernel_build_id().find(std::string(isa_name(kernel_isa()))) != std::string::npos);
}
