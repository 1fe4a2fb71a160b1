// Kernel speed against OpenBLAS measured in the same run.
//
// For GEMM shapes taken from VGG-16's convolutions (M = out channels, N = output pixels,
// K = in channels x 3 x 3) it prints GFLOP/s of coinfer's GEMM for every instruction-set variant the
// host supports, of OpenBLAS's single-thread cblas_sgemm on the same shape, and their ratio; then the
// same for whole conv2d layers (patch-to-column + GEMM) against sgemm on the layer's GEMM shape (the
// stricter comparison: OpenBLAS is not charged for patch-to-column) and against patch-to-column +
// sgemm; then the fc GEMV (VGG fc6) against cblas_sgemv. Time per case: median of `--repeats` rounds
// after a warm-up round, each round running coinfer and OpenBLAS in turn. Target: ratio >= 0.7 on
// the large GEMM-shaped convolutions.
//
//     ./build/bench/kernels_bench [--repeats N] [--quick]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#ifdef COINFER_HAVE_OPENBLAS
#include <cblas.h>
#endif

#include "sim/kernels/conv.hpp"
#include "sim/kernels/dense.hpp"
#include "sim/kernels/gemm.hpp"
#include "sim/report/table.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

int g_repeats = 5;

// Median wall times of `repeats` rounds after one warm-up round; each round calls every function once,
// in turn, so that a change of machine load affects all of them alike (the ratios stay fair).
std::vector<double> median_times_s(const std::vector<std::function<void()>>& fns) {
  for (const auto& fn : fns) fn();
  std::vector<std::vector<double>> t(fns.size());
  for (int r = 0; r < g_repeats; ++r)
    for (std::size_t i = 0; i < fns.size(); ++i) {
      const auto start = std::chrono::steady_clock::now();
      fns[i]();
      t[i].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  std::vector<double> medians;
  for (auto& v : t) {
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    medians.push_back(v[v.size() / 2]);
  }
  return medians;
}

std::string gflops(double flops, double s) { return fmt::format("{:.1f}", flops / s / 1e9); }

struct ConvCase {
  const char* name;
  std::int64_t c, h, w, oc;  // 3x3 kernel, stride 1, padding 1 (every VGG-16 convolution)
};

std::vector<KernelIsa> isas() {
  std::vector<KernelIsa> out;
  for (auto isa : {KernelIsa::Generic, KernelIsa::Avx2, KernelIsa::Avx512})
    if (isa_supported(isa)) out.push_back(isa);
  return out;
}

#ifdef COINFER_HAVE_OPENBLAS
void openblas_gemm(const Tensor& a, const Tensor& b, Tensor& c, std::int64_t m, std::int64_t n,
                   std::int64_t k) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
              static_cast<int>(k), 1.0f, a.ptr(), static_cast<int>(k), b.ptr(), static_cast<int>(n), 0.0f,
              c.ptr(), static_cast<int>(n));
}
#endif

void bench_gemm(const std::vector<ConvCase>& cases) {
  std::vector<std::string> header{"GEMM (VGG-16 layer)", "M", "N", "K"};
  for (auto isa : isas()) header.push_back(fmt::format("coinfer {} GF/s", isa_name(isa)));
  header.insert(header.end(), {"OpenBLAS GF/s", fmt::format("ratio ({})", isa_name(best_kernel_isa()))});
  TextTable t(header, std::vector<bool>(header.size(), true));
  for (const auto& cs : cases) {
    const std::int64_t m = cs.oc, n = cs.h * cs.w, k = cs.c * 9;
    const Tensor a = random_normal({m, k}, 1), b = random_normal({k, n}, 2);
    Tensor c({m, n});
    const double flops = 2.0 * static_cast<double>(m * n * k);
    std::vector<std::string> row{cs.name, std::to_string(m), std::to_string(n), std::to_string(k)};
    std::vector<std::function<void()>> fns;
    for (auto isa : isas())
      fns.push_back([&, isa] {
        set_kernel_isa(isa);
        gemm(a.ptr(), b.ptr(), c.ptr(), m, n, k);
      });
#ifdef COINFER_HAVE_OPENBLAS
    fns.push_back([&] { openblas_gemm(a, b, c, m, n, k); });
#endif
    const auto s = median_times_s(fns);
    set_kernel_isa(best_kernel_isa());
    for (std::size_t i = 0; i < isas().size(); ++i) row.push_back(gflops(flops, s[i]));
#ifdef COINFER_HAVE_OPENBLAS
    row.push_back(gflops(flops, s.back()));
    row.push_back(
        fmt::format("{:.2f}", s.back() / s[isas().size() - 1]));  // the best variant is the last one
#else
    row.insert(row.end(), {"n/a", "n/a"});
#endif
    t.add_row(row);
  }
  std::printf("%s\n", t.str().c_str());
}

void bench_conv(const std::vector<ConvCase>& cases) {
  TextTable t({"conv2d 3x3/1 pad 1", "input", "coinfer conv GF/s", "OpenBLAS sgemm GF/s", "ratio vs sgemm",
               "im2col+sgemm GF/s", "ratio vs im2col+sgemm"},
              {false, false, true, true, true, true, true});
  for (const auto& cs : cases) {
    const Tensor x = random_normal({cs.c, cs.h, cs.w}, 3), w = random_normal({cs.oc, cs.c, 3, 3}, 4);
    const Tensor bias = random_normal({cs.oc}, 5);
    ConvParams p;
    p.padding = {1, 1};
    const std::int64_t m = cs.oc, n = cs.h * cs.w, k = cs.c * 9;
    const double flops = 2.0 * static_cast<double>(m * n * k);
    std::vector<std::function<void()>> fns{[&] { (void)conv2d(x, w, bias, p); }};
#ifdef COINFER_HAVE_OPENBLAS
    Tensor cols({k, n}), out({m, n});
    im2col(x, 0, cs.c, {3, 3}, p, cs.h, cs.w, cols.ptr());
    fns.push_back([&] { openblas_gemm(w, cols, out, m, n, k); });
    fns.push_back([&] {
      im2col(x, 0, cs.c, {3, 3}, p, cs.h, cs.w, cols.ptr());
      openblas_gemm(w, cols, out, m, n, k);
    });
#endif
    const auto s = median_times_s(fns);
    const double conv_s = s[0];
    std::vector<std::string> row{cs.name, shape_to_string(x.shape), gflops(flops, conv_s)};
#ifdef COINFER_HAVE_OPENBLAS
    const double sgemm_s = s[1], full_s = s[2];
    row.insert(row.end(), {gflops(flops, sgemm_s), fmt::format("{:.2f}", sgemm_s / conv_s),
                           gflops(flops, full_s), fmt::format("{:.2f}", full_s / conv_s)});
#else
    row.insert(row.end(), {"n/a", "n/a", "n/a", "n/a"});
#endif
    t.add_row(row);
  }
  std::printf("%s\n", t.str().c_str());
}

void bench_gemv(std::int64_t m, std::int64_t n) {
  const Tensor x = random_normal({n}, 6), w = random_normal({m, n}, 7);
  const double flops = 2.0 * static_cast<double>(m * n);
  std::vector<std::function<void()>> fns{[&] { (void)fully_connected(x, w, Tensor()); }};
#ifdef COINFER_HAVE_OPENBLAS
  Tensor y({m});
  fns.push_back([&] {
    cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(m), static_cast<int>(n), 1.0f, w.ptr(),
                static_cast<int>(n), x.ptr(), 1, 0.0f, y.ptr(), 1);
  });
#endif
  const auto s = median_times_s(fns);
  const double fc_s = s[0];
  TextTable t({"fc GEMV", "M x N", "coinfer GF/s", "OpenBLAS sgemv GF/s", "ratio"},
              {false, false, true, true, true});
  std::vector<std::string> row{"VGG-16 fc6", fmt::format("{} x {}", m, n), gflops(flops, fc_s)};
#ifdef COINFER_HAVE_OPENBLAS
  const double ob = s[1];
  row.insert(row.end(), {gflops(flops, ob), fmt::format("{:.2f}", ob / fc_s)});
#else
  row.insert(row.end(), {"n/a", "n/a"});
#endif
  t.add_row(row);
  std::printf("%s\n", t.str().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc)
      g_repeats = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: kernels_bench [--repeats N] [--quick]\n");
      return 2;
    }
  }
  set_kernel_threads(1);
#ifdef COINFER_HAVE_OPENBLAS
  openblas_set_num_threads(1);
  std::printf("reference: OpenBLAS %s, 1 thread\n", openblas_get_config());
#else
  std::printf("reference: OpenBLAS not found at build time (ratios n/a)\n");
#endif
  std::printf("coinfer kernels: %s (best isa on this host: %s); median of %d runs\n\n",
              kernel_build_id().c_str(), std::string(isa_name(best_kernel_isa())).c_str(), g_repeats);
  // VGG-16 (Simonyan & Zisserman 2015, config. D) 3x3 convolutions: (in channels, H, W, out channels).
  std::vector<ConvCase> cases{{"conv2_1", 64, 112, 112, 128}, {"conv3_1", 128, 56, 56, 256},
                              {"conv3_2", 256, 56, 56, 256},  {"conv4_1", 256, 28, 28, 512},
                              {"conv4_2", 512, 28, 28, 512},  {"conv5_1", 512, 14, 14, 512}};
  if (quick) cases = {{"conv3_1", 128, 56, 56, 256}, {"conv4_1", 256, 28, 28, 512}};
  bench_gemm(cases);
  bench_conv(cases);
  bench_gemv(4096, 25088);
  return 0;
}
