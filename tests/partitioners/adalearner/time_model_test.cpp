// AdaLearner's time model (sec. 3.3-3.4): the lookup table, the minibatch split against brute force,
// eq. 3.8 and 3.11-3.13 against hand computations.
#include <catch2/catch.hpp>

#include <functional>

#include "partitioners/adalearner/time_model.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/tensor.hpp"
#include "sim/models/zoo.hpp"

using namespace coinfer;
using namespace coinfer::adalearner;

TEST_CASE("a step table interpolates between measured sizes and extrapolates along the end segments") {
  const StepTable t({10, 20, 40}, {1.0, 1.5, 3.5});
  CHECK(t.seconds(0) == 0.0);
  CHECK(t.seconds(20) == 1.5);
  CHECK(t.seconds(15) == Approx(1.25));  // halfway between 1.0 and 1.5
  CHECK(t.seconds(30) == Approx(2.5));   // halfway between 1.5 and 3.5
  CHECK(t.seconds(60) == Approx(5.5));   // slope 0.1 s per sample past 40
  CHECK(t.seconds(5) == Approx(0.75));   // slope 0.05 below 10
  CHECK(t.seconds(1) == Approx(0.55));
  // one entry: proportional to the size
  CHECK(StepTable({128}, {10.0}).seconds(64) == Approx(5.0));
  // a steep first segment would extrapolate below 0: clamped at 0 (and never above the first entry)
  CHECK(StepTable({10, 11}, {1.0, 2.0}).seconds(2) == 0.0);
  CHECK_THROWS_AS(t.seconds(-1), Error);
}

TEST_CASE("a step table with unordered sizes or decreasing times is refused, naming the entry") {
  CHECK_THROWS_WITH(StepTable({}, {}), Catch::Contains("at least one"));
  CHECK_THROWS_WITH(StepTable({1, 2}, {1.0}), Catch::Contains("as many times"));
  CHECK_THROWS_WITH(StepTable({4, 4}, {1.0, 2.0}),
                    Catch::Contains("step_table[1]") && Catch::Contains("increasing"));
  CHECK_THROWS_WITH(StepTable({0}, {1.0}), Catch::Contains("step_table[0]"));
  CHECK_THROWS_WITH(StepTable({1, 2}, {2.0, 1.0}),
                    Catch::Contains("step_table[1]") && Catch::Contains("do not decrease"));
  CHECK_THROWS_WITH(StepTable({1}, {0.0}), Catch::Contains("times > 0"));
}

TEST_CASE("the minibatch splits in proportion to capability: twice as fast takes twice the samples") {
  // Linear tables: worker 0 0.01 s per sample, worker 1 0.02 s. 90 samples: 60 and 30, both 0.6 s.
  const std::vector<StepTable> w{StepTable({1, 100}, {0.01, 1.0}), StepTable({1, 100}, {0.02, 2.0})};
  CHECK(split_minibatch(w, 90) == std::vector<std::int64_t>{60, 30});
  // equal workers: 128 over 3 is 43, 43, 42 (ties to the lower index)
  const std::vector<StepTable> same(3, StepTable({1, 128}, {0.1, 12.8}));
  CHECK(split_minibatch(same, 128) == std::vector<std::int64_t>{43, 43, 42});
}

TEST_CASE("the minibatch split minimises the slowest worker's time, as brute force over every split") {
  Rng rng(5);
  for (int instance = 0; instance < 30; ++instance) {
    // 3 workers with random non-decreasing, non-linear tables (a fixed cost and a per-sample slope that
    // changes at 4 samples, as Fig. 3.7's MLP), totals 3-12
    std::vector<StepTable> w;
    for (int k = 0; k < 3; ++k) {
      const double fixed = rng.uniform(0.0f, 1.0f), a = rng.uniform(0.1f, 1.0f), b = rng.uniform(0.1f, 1.0f);
      w.emplace_back(std::vector<std::int64_t>{1, 4, 16},
                     std::vector<double>{fixed + a, fixed + 4 * a, fixed + 4 * a + 12 * b});
    }
    const std::int64_t total = 3 + instance % 10;
    double best = 1e30;
    for (std::int64_t a = 1; a <= total - 2; ++a)
      for (std::int64_t b = 1; a + b <= total - 1; ++b)
        best = std::min(best, std::max({w[0].seconds(a), w[1].seconds(b), w[2].seconds(total - a - b)}));
    const auto split = split_minibatch(w, total);
    INFO("instance " << instance << ", total " << total);
    CHECK(split[0] + split[1] + split[2] == total);
    CHECK(std::max({w[0].seconds(split[0]), w[1].seconds(split[1]), w[2].seconds(split[2])}) == Approx(best));
  }
}

TEST_CASE("a minibatch smaller than the workers, or no worker, is refused") {
  const std::vector<StepTable> w(4, StepTable({1}, {0.1}));
  CHECK_THROWS_WITH(split_minibatch(w, 3),
                    Catch::Contains("a minibatch of 3 does not split across 4 workers"));
  CHECK_THROWS_WITH(split_minibatch({}, 3), Catch::Contains("at least 1 worker, got 0"));
}

namespace {

// The MLP's exchange: 437,544 bytes up and as many down = 875,088 bytes per worker and iteration,
// B = 2.5 MB/s, D = 0.1 s per worker, S_q = 2e8 B/s, S_uq = 4e8 B/s, Z = 20.
CommModel mlp_comm() { return {875088.0, 2.5e6, 0.1, 2e8, 4e8, 20.0}; }

}  // namespace

TEST_CASE("eq. 3.11 and 3.12 by hand, and eq. 3.13 choosing the cheaper one") {
  const CommModel c = mlp_comm();
  // eq. 3.11, N = 4: 4 x 875,088 / 2.5e6 = 1.4001408 s + 4 x 0.1 = 1.8001408 s
  CHECK(comm_fp32_s(c, 4) == Approx(1.8001408));
  // eq. 3.12: 2 x 875,088 / 2e8 = 0.00875088; 3 x 875,088 / 4e8 = 0.00656316; 1.4001408 / 20 = 0.07000704;
  // + 0.4: 0.48532108 s
  CHECK(comm_onebit_s(c, 4) == Approx(0.48532108));
  CHECK(prefer_onebit(c, 4));
  // a fast link and a slow decoder turn the choice: B = 1 GB/s, S_uq = 1e6 B/s
  CommModel fast = c;
  fast.bandwidth_bytes_per_s = 1e9;
  fast.unquantize_bytes_per_s = 1e6;
  CHECK_FALSE(prefer_onebit(fast, 4));
  CommModel bad = c;
  bad.bandwidth_bytes_per_s = 0.0;
  CHECK_THROWS_WITH(comm_fp32_s(bad, 2), Catch::Contains("bandwidth_bytes_per_s"));
}

TEST_CASE("eq. 3.8: the slowest worker's step, the serialized transfers and the wake-ups add up") {
  // Two workers at 0.01 and 0.02 s per sample share 90 samples: 60 / 30, 0.6 s each.
  const std::vector<StepTable> w{StepTable({1, 100}, {0.01, 1.0}), StepTable({1, 100}, {0.02, 2.0})};
  const CommModel c = mlp_comm();
  const IterationEstimate fp32 = estimate_iteration(w, 90, c, Scheme::Fp32);
  CHECK(fp32.split == std::vector<std::int64_t>{60, 30});
  CHECK(fp32.compute_s == Approx(0.6));
  CHECK(fp32.transfer_s == Approx(2 * 875088 / 2.5e6));  // 0.7000704
  CHECK(fp32.wakeup_s == Approx(0.2));
  CHECK(fp32.codec_s == 0.0);
  CHECK(fp32.total_s == Approx(0.6 + 0.7000704 + 0.2));
  CHECK(fp32.total_s == Approx(0.6 + comm_fp32_s(c, 2)));
  const IterationEstimate onebit = estimate_iteration(w, 90, c, Scheme::OneBit);
  CHECK(onebit.onebit);
  CHECK(onebit.transfer_s == Approx(0.7000704 / 20));
  CHECK(onebit.codec_s == Approx(2 * 875088 / 2e8 + 875088 / 4e8));
  CHECK(onebit.total_s == Approx(0.6 + comm_onebit_s(c, 2)));
  const IterationEstimate chosen = estimate_iteration(w, 90, c, Scheme::Auto);
  CHECK(chosen.onebit == prefer_onebit(c, 2));
  CHECK(chosen.total_s == Approx(std::min(fp32.total_s, onebit.total_s)));
}

TEST_CASE("measured step times become a table sorted by size that never decreases") {
  // 64 measured faster than 32 (a loaded host): raised to 32's time.
  const StepTable t = measured_step_table({{64, 0.9}, {1, 0.02}, {32, 1.0}, {128, 2.0}});
  CHECK(t.batches() == std::vector<std::int64_t>{1, 32, 64, 128});
  CHECK(t.seconds(64) == 1.0);
  CHECK(t.seconds(128) == 2.0);
  CHECK_THROWS_WITH(measured_step_table({{4, 0.1}, {4, 0.2}}), Catch::Contains("increasing"));
}

TEST_CASE("a real training step's table splits a minibatch across two equal hosts evenly") {
  // The same measured table twice: the split of 64 is 32 / 32 whatever the measured times are.
  const StepTable t =
      measured_step_table(time_training_steps(build_zoo_model("digits_mlp"), {1, 16, 64}, 2, 1));
  const auto split = split_minibatch({t, t}, 64);
  CHECK(split == std::vector<std::int64_t>{32, 32});
  CHECK(t.seconds(64) >= t.seconds(16));
}
