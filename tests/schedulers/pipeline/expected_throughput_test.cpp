// pipeline-expected (Hu & Krishnamachari eq. 4-7): deterministic cases, closed forms for one stage,
// the paper's density form (eq. 5-7) integrated independently, seeded Monte Carlo, malformed problems.
#include "schedulers/pipeline/expected_throughput.hpp"

#include <cmath>
#include <numbers>
#include <random>

#include <catch2/catch.hpp>

#include "tests/solve/solve_test_support.hpp"

#include "schedulers/pipeline/register.hpp"
#include "sim/core/error.hpp"

using coinfer::BandwidthTail;
using coinfer::ExpectedThroughputProblem;
using coinfer::InputError;
using coinfer::Json;

namespace {

Json solve(const Json& problem) {
  return coinfer::testing::solve_with(coinfer::register_pipeline_solvers, "pipeline-expected", problem);
}

std::string error_path(const Json& problem) {
  return coinfer::testing::input_error_path([&] { solve(problem); });
}

double phi(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi); }
double cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }
double upper(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }  // 1 - cdf(z), keeping tail digits

/// E[min(Tp, tau)] for one stage, tau = B / D ~ N(m, s) with m = mean / D, s = stddev / D:
///   untruncated: int_-inf^Tp t dN + Tp P(tau > Tp) = m Phi(a) - s phi(a) + Tp (1 - Phi(a)), a = (Tp - m) /
///   s; clamped: the same minus E[tau; tau < 0] = m Phi(c) - s phi(c), c = -m / s; truncated: (m (Phi(a) -
///   Phi(c)) - s (phi(a) - phi(c)) + Tp (1 - Phi(a))) / (1 - Phi(c)).
double one_stage_closed_form(double tp, double d, double mean, double stddev, BandwidthTail model) {
  const double m = mean / d, s = stddev / d, a = (tp - m) / s, c = -m / s;
  const double capped = tp * (1 - cdf(a));
  switch (model) {
    case BandwidthTail::untruncated:
      return m * cdf(a) - s * phi(a) + capped;
    case BandwidthTail::clamped:
      return m * cdf(a) - s * phi(a) + capped - (m * cdf(c) - s * phi(c));
    case BandwidthTail::truncated:
      return (m * (cdf(a) - cdf(c)) - s * (phi(a) - phi(c)) + capped) / (1 - cdf(c));
  }
  return 0;
}

/// eq. 6 with eq. 4-5 as printed (untruncated Gaussians), by composite Simpson with `intervals` steps:
/// E[T] = P1 Tp + sum_j int_lo^Tp prod_{i != j} (1 - P_i(D_i t)) p_j(D_j t) D_j t dt.
double eq6_density_form(const ExpectedThroughputProblem& p, int intervals) {
  const std::size_t n = p.stage_data.size();
  auto survive = [&](std::size_t i, double t) {
    return 1 - cdf((p.stage_data[i] * t - p.bandwidth[i].mean) / p.bandwidth[i].stddev);
  };
  auto integrand = [&](double t) {
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const auto& bw = p.bandwidth[j];
      double term = p.stage_data[j] / bw.stddev * phi((p.stage_data[j] * t - bw.mean) / bw.stddev) * t;
      for (std::size_t i = 0; i < n; ++i)
        if (i != j) term *= survive(i, t);
      sum += term;
    }
    return sum;
  };
  double lo = 0, p1 = 1;
  for (std::size_t i = 0; i < n; ++i) {
    lo = std::min(lo, (p.bandwidth[i].mean - 14 * p.bandwidth[i].stddev) / p.stage_data[i]);
    p1 *= survive(i, p.compute_throughput_fps);  // eq. 4
  }
  const double h = (p.compute_throughput_fps - lo) / intervals;
  double simpson = integrand(lo) + integrand(p.compute_throughput_fps);
  for (int k = 1; k < intervals; ++k) simpson += (k % 2 ? 4 : 2) * integrand(lo + k * h);
  return p1 * p.compute_throughput_fps + simpson * h / 3;
}

struct MonteCarlo {
  double mean, standard_error, p_compute_bound, p_standard_error;
};

/// Seeded sampling of T = min(Tp, min_i B_i / D_i) with the model's treatment of negative draws.
MonteCarlo monte_carlo(const ExpectedThroughputProblem& p, int samples, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  double sum = 0, sum_sq = 0;
  int compute_bound = 0;
  for (int k = 0; k < samples; ++k) {
    double t = p.compute_throughput_fps;
    bool comm_bound = false;
    for (std::size_t i = 0; i < p.stage_data.size(); ++i) {
      double b = p.bandwidth[i].mean + p.bandwidth[i].stddev * normal(rng);
      if (p.model == BandwidthTail::truncated)
        while (b <= 0) b = p.bandwidth[i].mean + p.bandwidth[i].stddev * normal(rng);
      if (p.model == BandwidthTail::clamped) b = std::max(b, 0.0);
      comm_bound = comm_bound || b / p.stage_data[i] <= p.compute_throughput_fps;
      t = std::min(t, b / p.stage_data[i]);
    }
    sum += t;
    sum_sq += t * t;
    compute_bound += comm_bound ? 0 : 1;
  }
  const double mean = sum / samples, var = sum_sq / samples - mean * mean;
  const double p1 = double(compute_bound) / samples;
  return {mean, std::sqrt(var / samples), p1, std::sqrt(p1 * (1 - p1) / samples)};
}

// Three links with mean stage throughputs 10, 12, 12 fps around Tp = 10 fps.
ExpectedThroughputProblem three_links(BandwidthTail model) {
  return {10.0, {2.0, 1.0, 0.5}, {{20, 5}, {12, 3}, {6, 2}}, model};
}

// A link that is negative with probability Phi(-3/4) = 23 %: the three models differ.
ExpectedThroughputProblem unreliable_link(BandwidthTail model) {
  return {5.0, {1.0, 1.0}, {{3, 4}, {6, 2}}, model};
}

}  // namespace

TEST_CASE("pipeline-expected: deterministic bandwidths give the plain bottleneck", "[pipeline]") {
  // stddev 0: T = min(Tp, mean_i / D_i). Tp = 10, D = {2, 1}:
  //   means {30, 8}:  min(10, 15, 8) = 8, communication-bound (P1 = 0);
  //   means {30, 12}: min(10, 15, 12) = 10, compute-bound (P1 = 1);
  //   means {20, 12}: 20 / 2 = 10 ties Tp: T = 10 but eq. 4 asks B / D > Tp strictly, so P1 = 0;
  //   means {0, 12}:  a dead link, T = 0.
  auto run = [](double m1, double m2) {
    return coinfer::solve_expected_throughput({10.0, {2.0, 1.0}, {{m1, 0}, {m2, 0}}});
  };
  CHECK(run(30, 8).expected_throughput_fps == Approx(8.0).epsilon(1e-12));
  CHECK(run(30, 8).p_compute_bound == 0.0);
  CHECK(run(30, 12).expected_throughput_fps == Approx(10.0).epsilon(1e-12));
  CHECK(run(30, 12).p_compute_bound == 1.0);
  CHECK(run(20, 12).expected_throughput_fps == Approx(10.0).epsilon(1e-12));
  CHECK(run(20, 12).p_compute_bound == 0.0);
  CHECK(run(0, 12).expected_throughput_fps == 0.0);
}

TEST_CASE("pipeline-expected: a nearly deterministic link is resolved by the adaptive quadrature",
          "[pipeline]") {
  // stddev 1e-9 around the deterministic {30, 8} case above: E[T] = 8 to well within 1e-6.
  const auto s = coinfer::solve_expected_throughput({10.0, {2.0, 1.0}, {{30, 1e-9}, {8, 1e-9}}});
  CHECK(s.expected_throughput_fps == Approx(8.0).epsilon(1e-8));
}

TEST_CASE("pipeline-expected: one stage matches the closed form for every model", "[pipeline]") {
  // 300 seeded instances (100 per model), mean / stddev from 0.2 to 20: relative error <= 1e-8.
  std::mt19937_64 rng(4242);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const BandwidthTail models[] = {BandwidthTail::clamped, BandwidthTail::truncated,
                                  BandwidthTail::untruncated};
  for (int trial = 0; trial < 300; ++trial) {
    const auto model = models[trial % 3];
    const double tp = 1 + 20 * unit(rng), d = 0.2 + 3 * unit(rng), mean = 1 + 50 * unit(rng);
    const double stddev = mean / (0.2 + 19.8 * unit(rng));
    const auto s = coinfer::solve_expected_throughput({tp, {d}, {{mean, stddev}}, model});
    INFO("trial " << trial << ": Tp " << tp << ", D " << d << ", N(" << mean << ", " << stddev << ")");
    const double expected = one_stage_closed_form(tp, d, mean, stddev, model);
    CHECK(s.expected_throughput_fps == Approx(expected).epsilon(1e-8).margin(1e-12));
    // eq. 4 with one stage: P(B / D > Tp) (renormalised for "truncated").
    double p1 = upper((d * tp - mean) / stddev);
    if (model == BandwidthTail::truncated) p1 /= upper(-mean / stddev);
    CHECK(s.p_compute_bound == Approx(p1).epsilon(1e-12).margin(1e-300));
  }
}

TEST_CASE("pipeline-expected: 'untruncated' reproduces the density form of eq. 5-6", "[pipeline]") {
  // The solver integrates the survival function; here eq. 5 is integrated as printed (density times
  // tau) with Simpson's rule and added to P1 Tp (eq. 6). They must agree to 1e-7.
  for (const auto& p :
       {three_links(BandwidthTail::untruncated), unreliable_link(BandwidthTail::untruncated)}) {
    const double reference = eq6_density_form(p, 200000);
    CHECK(coinfer::solve_expected_throughput(p).expected_throughput_fps == Approx(reference).epsilon(1e-7));
  }
}

TEST_CASE("pipeline-expected: eq. 7, the paper's two i.i.d. links case", "[pipeline]") {
  // n = 3 devices, B_1, B_2 ~ N(mu, sigma) i.i.d.; eq. 7 written out with a_i = (D_i Tp - mu) / sigma.
  const double tp = 8, mu = 30, sigma = 10, d1 = 3, d2 = 2;
  const double a1 = (d1 * tp - mu) / sigma, a2 = (d2 * tp - mu) / sigma;
  auto integral =
      [&](double da,
          double db) {  // (da / sigma) int (1 - Phi((db t - mu)/sigma)) phi((da t - mu)/sigma) t dt
        const double lo = (mu - 14 * sigma) / std::max(da, db);
        const int steps = 200000;
        const double h = (tp - lo) / steps;
        auto g = [&](double t) { return (1 - cdf((db * t - mu) / sigma)) * phi((da * t - mu) / sigma) * t; };
        double s = g(lo) + g(tp);
        for (int k = 1; k < steps; ++k) s += (k % 2 ? 4 : 2) * g(lo + k * h);
        return da / sigma * s * h / 3;
      };
  const double eq7 = (1 - cdf(a1)) * (1 - cdf(a2)) * tp + integral(d1, d2) + integral(d2, d1);
  const auto s = coinfer::solve_expected_throughput(
      {tp, {d1, d2}, {{mu, sigma}, {mu, sigma}}, BandwidthTail::untruncated});
  CHECK(s.expected_throughput_fps == Approx(eq7).epsilon(1e-7));
  CHECK(s.p_compute_bound == Approx((1 - cdf(a1)) * (1 - cdf(a2))).epsilon(1e-12));
}

TEST_CASE("pipeline-expected: agrees with a seeded Monte Carlo estimate", "[pipeline]") {
  // 10^6 samples per case; the solver's value must lie within 5 standard errors of the estimate.
  const BandwidthTail models[] = {BandwidthTail::clamped, BandwidthTail::truncated,
                                  BandwidthTail::untruncated};
  std::uint64_t seed = 7;
  for (const auto model : models) {
    for (const auto& p : {three_links(model), unreliable_link(model)}) {
      const auto mc = monte_carlo(p, 1000000, seed++);
      const auto s = coinfer::solve_expected_throughput(p);
      INFO("model " << static_cast<int>(model) << ", Tp " << p.compute_throughput_fps << ": MC " << mc.mean
                    << " +- " << mc.standard_error << ", solver " << s.expected_throughput_fps);
      CHECK(std::fabs(s.expected_throughput_fps - mc.mean) <= 5 * mc.standard_error);
      CHECK(std::fabs(s.p_compute_bound - mc.p_compute_bound) <= 5 * mc.p_standard_error + 1e-12);
    }
  }
}

TEST_CASE("pipeline-expected: the models differ only through negative bandwidth draws", "[pipeline]") {
  // mean / stddev = 20 per link: P(B < 0) = Phi(-20) ~ 3e-89, so all three coincide; with the
  // unreliable link (23 % negative) clamping raises E[T] above the untruncated value, and
  // conditioning on B > 0 raises it further (negative draws are replaced by positive ones).
  auto e = [](ExpectedThroughputProblem p) {
    return coinfer::solve_expected_throughput(p).expected_throughput_fps;
  };
  const ExpectedThroughputProblem safe{10.0, {1.0, 2.0}, {{20, 1}, {30, 1.5}}};
  auto with_model = [](ExpectedThroughputProblem p, BandwidthTail m) {
    p.model = m;
    return p;
  };
  CHECK(e(with_model(safe, BandwidthTail::truncated)) == Approx(e(safe)).epsilon(1e-12));
  CHECK(e(with_model(safe, BandwidthTail::untruncated)) == Approx(e(safe)).epsilon(1e-12));
  const double untruncated = e(unreliable_link(BandwidthTail::untruncated));
  const double clamped = e(unreliable_link(BandwidthTail::clamped));
  const double truncated = e(unreliable_link(BandwidthTail::truncated));
  CHECK(untruncated < clamped);
  CHECK(clamped < truncated);
}

TEST_CASE("pipeline-expected: the JSON problem and solution", "[pipeline]") {
  // Deterministic: min(10, 20 / 2) with the tie -> T = 10, P1 = 0 (as in the first test case).
  const Json out = solve({{"compute_throughput", 10},
                          {"stage_data", {2}},
                          {"bandwidth", {{{"mean", 20}, {"stddev", 0}}}},
                          {"bandwidth_model", "untruncated"}});
  CHECK(out["expected_throughput"].get<double>() == Approx(10.0));
  CHECK(out["p_compute_bound"].get<double>() == 0.0);
}

TEST_CASE("pipeline-expected: malformed problems name the JSON path", "[pipeline]") {
  const Json good = {{"compute_throughput", 10},
                     {"stage_data", {2, 1}},
                     {"bandwidth", {{{"mean", 20}, {"stddev", 5}}, {{"mean", 12}, {"stddev", 3}}}}};
  auto with = [&](const char* key, Json value) {
    Json j = good;
    j[key] = std::move(value);
    return j;
  };
  Json missing = good;
  missing.erase("bandwidth");
  CHECK(error_path(missing) == "bandwidth");
  CHECK(error_path(with("compute_throughput", -1)) == "compute_throughput");
  CHECK(error_path(with("stage_data", Json::array())) == "stage_data");
  CHECK(error_path(with("stage_data", {2, 0})) == "stage_data[1]");
  CHECK(error_path(with("stage_data", 2)) == "stage_data");
  CHECK(error_path(with("bandwidth", {{{"mean", 20}, {"stddev", 5}}})) ==
        "bandwidth");  // 1 entry for 2 stages
  CHECK(error_path(with("bandwidth", {{{"mean", 20}, {"stddev", 5}}, {{"mean", 12}, {"stddev", -3}}})) ==
        "bandwidth[1].stddev");
  CHECK(error_path(with("bandwidth", {{{"mean", 20}}, {{"mean", 12}, {"stddev", 3}}})) ==
        "bandwidth[0].stddev");
  CHECK(error_path(with("bandwidth", {{{"mean", -20}, {"stddev", 5}}, {{"mean", 12}, {"stddev", 3}}})) ==
        "bandwidth[0].mean");
  CHECK(error_path(with("bandwidth", {20, 12})) == "bandwidth[0]");
  CHECK(error_path(with("bandwidth_model", "gaussian")) == "bandwidth_model");
  CHECK(error_path(with("bandwith", 1)) == "bandwith");  // unknown key (typo)
}

TEST_CASE("pipeline-expected: magnitudes outside [1e-30, 1e30] are out of range", "[pipeline]") {
  // a median mean / D of 20 / 1e-300 overflowed; the bounds keep quotients of two within 1e+-60
  const Json good = {
      {"compute_throughput", 20}, {"stage_data", {1.0}}, {"bandwidth", {{{"mean", 20}, {"stddev", 6}}}}};
  auto with = [&](const char* key, Json value) {
    Json j = good;
    j[key] = std::move(value);
    return j;
  };
  CHECK(error_path(with("stage_data", {1e-300})) == "stage_data[0]");
  CHECK(error_path(with("compute_throughput", 1e300)) == "compute_throughput");
  CHECK(error_path(with("bandwidth", {{{"mean", 1e300}, {"stddev", 1}}})) == "bandwidth[0].mean");
}
