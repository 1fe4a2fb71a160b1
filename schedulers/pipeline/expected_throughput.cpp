#include "schedulers/pipeline/expected_throughput.hpp"

#include <algorithm>
#include <cmath>
#include <queue>

#include <fmt/format.h>

#include "schedulers/pipeline/validate.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

constexpr double kRelTol = 1e-10;  // quadrature target, relative to the integral
constexpr std::size_t kMaxIntervals = 20000;
constexpr std::size_t kMaxStages = 4096;  // a product over the stages is evaluated per quadrature point
constexpr double kTailSigmas = 12.0;      // Phi(-12) ~ 2e-33: the untruncated left tail beyond is nil

/// P(Z > z) for a standard normal, accurate in both tails.
double normal_upper(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

/// ln P(B / D > x) for one stage; ln(0) = -inf.
double log_survival(const GaussianBandwidth& bw, double d, double x, BandwidthModel model) {
  const double level = d * x;
  if (model != BandwidthModel::untruncated && x < 0.0) return 0.0;  // B' >= 0 > D x
  if (bw.stddev == 0.0) return bw.mean > level ? 0.0 : -INFINITY;
  const double z = (level - bw.mean) / bw.stddev;
  // ln Q(z): through ln(1 - Phi(z)) on the left so that Q close to 1 keeps its digits.
  double log_q = z < 0.0 ? std::log1p(-normal_upper(-z)) : std::log(normal_upper(z));
  if (model == BandwidthModel::truncated) log_q -= std::log(normal_upper(-bw.mean / bw.stddev));
  return std::min(log_q, 0.0);
}

/// Sum over stages of ln P(B_i / D_i > x) = ln P(min_i B_i / D_i > x).
double log_all_survive(const ExpectedThroughputProblem& p, double x) {
  double sum = 0.0;
  for (std::size_t i = 0; i < p.stage_data.size() && sum > -INFINITY; ++i)
    sum += log_survival(p.bandwidth[i], p.stage_data[i], x, p.model);
  return sum;
}

struct Piece {
  double a, b, value, error;
  bool operator<(const Piece& o) const { return error < o.error; }
};

/// Gauss-Kronrod (7, 15) on [a, b]: the Kronrod value and |Kronrod - Gauss| as its error.
template <class F>
Piece gauss_kronrod(const F& f, double a, double b) {
  static constexpr double xk[8] = {0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                                   0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                                   0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                                   0.207784955007898467600689403773245, 0.0};
  static constexpr double wk[8] = {0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                                   0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                                   0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                                   0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
  // 7-point Gauss weights at the odd Kronrod nodes xk[1], xk[3], xk[5], xk[7].
  static constexpr double wg[4] = {0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                                   0.381830050505118944950369775488975, 0.417959183673469387755102040816327};
  const double mid = 0.5 * (a + b), half = 0.5 * (b - a);
  const double fc = f(mid);
  double kronrod = wk[7] * fc, gauss = wg[3] * fc;
  for (int j = 0; j < 7; ++j) {
    const double pair = f(mid - half * xk[j]) + f(mid + half * xk[j]);
    kronrod += wk[j] * pair;
    if (j % 2 == 1) gauss += wg[j / 2] * pair;
  }
  return {a, b, kronrod * half, std::fabs(kronrod - gauss) * half};
}

/// Global adaptive quadrature of a non-negative `f` over the pieces between consecutive `points`
/// (sorted): bisects the piece with the largest error estimate until the summed estimate is below
/// kRelTol times the integral, or kMaxIntervals pieces exist.
template <class F>
double integrate(const F& f, const std::vector<double>& points) {
  std::priority_queue<Piece> pieces;
  double total = 0.0, error = 0.0;
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    if (!(points[k + 1] > points[k])) continue;
    const Piece piece = gauss_kronrod(f, points[k], points[k + 1]);
    total += piece.value;
    error += piece.error;
    pieces.push(piece);
  }
  while (!pieces.empty() && error > kRelTol * std::fabs(total) && pieces.size() < kMaxIntervals) {
    const Piece worst = pieces.top();
    pieces.pop();
    const double mid = 0.5 * (worst.a + worst.b);
    if (!(mid > worst.a && mid < worst.b)) break;  // cannot split further in floating point
    const Piece left = gauss_kronrod(f, worst.a, mid), right = gauss_kronrod(f, mid, worst.b);
    total += left.value + right.value - worst.value;
    error += left.error + right.error - worst.error;
    pieces.push(left);
    pieces.push(right);
  }
  return total;
}

/// Sorted integration points: [lo, hi] plus each stage's median throughput mean_i / D_i inside it
/// (the jump of a deterministic stage, the steepest place of a narrow one).
std::vector<double> break_points(const ExpectedThroughputProblem& p, double lo, double hi) {
  std::vector<double> points{lo, hi};
  for (std::size_t i = 0; i < p.stage_data.size(); ++i) {
    const double median = p.bandwidth[i].mean / p.stage_data[i];
    if (median > lo && median < hi) points.push_back(median);
  }
  std::sort(points.begin(), points.end());
  return points;
}

BandwidthModel parse_model(const Json& problem) {
  if (!json_find(problem, "bandwidth_model", "")) return BandwidthModel::clamped;
  const auto name = json_enum(problem, "bandwidth_model", "", {"clamped", "truncated", "untruncated"});
  if (name == "truncated") return BandwidthModel::truncated;
  return name == "untruncated" ? BandwidthModel::untruncated : BandwidthModel::clamped;
}

GaussianBandwidth parse_bandwidth(const Json& v, const std::string& path) {
  json_reject_unknown_keys(v, path, {"mean", "stddev"});
  return {json_number(v, "mean", path, 0.0, kPipelineMax), json_number(v, "stddev", path, 0.0, kPipelineMax)};
}

}  // namespace

ExpectedThroughputProblem parse_expected_throughput_problem(const Json& problem) {
  json_reject_unknown_keys(problem, "",
                           {"compute_throughput", "stage_data", "bandwidth", "bandwidth_model", "comment"});
  ExpectedThroughputProblem p;
  p.compute_throughput_fps = pipeline_positive_number(problem, "compute_throughput");
  p.stage_data = json_number_array(problem, "stage_data", "", -1, 0.0, kPipelineMax);
  if (p.stage_data.empty()) throw InputError("", "stage_data", "expected at least 1 entry");
  if (p.stage_data.size() > kMaxStages)
    throw InputError("", "stage_data", fmt::format("expected at most {} entries", kMaxStages));
  for (std::size_t i = 0; i < p.stage_data.size(); ++i) {
    if (!(p.stage_data[i] > 0.0))
      throw InputError("", index_path("stage_data", i),
                       fmt::format("expected a number > 0, got {}", p.stage_data[i]));
    pipeline_positive_value(p.stage_data[i], index_path("stage_data", i));
  }
  const Json& bw = json_at(problem, "bandwidth", "");
  if (!bw.is_array())
    throw InputError("", "bandwidth", "expected an array of {\"mean\", \"stddev\"} objects");
  if (bw.size() != p.stage_data.size())
    throw InputError("", "bandwidth",
                     fmt::format("expected {} entries (one per stage_data entry), got {}",
                                 p.stage_data.size(), bw.size()));
  for (std::size_t i = 0; i < bw.size(); ++i)
    p.bandwidth.push_back(parse_bandwidth(bw[i], index_path("bandwidth", i)));
  p.model = parse_model(problem);
  return p;
}

double stage_survival(const GaussianBandwidth& bandwidth, double stage_data, double throughput_fps,
                      BandwidthModel model) {
  return std::exp(log_survival(bandwidth, stage_data, throughput_fps, model));
}

ExpectedThroughputSolution solve_expected_throughput(const ExpectedThroughputProblem& p) {
  const double tp = p.compute_throughput_fps;
  ExpectedThroughputSolution sol;
  // eq. 4: P1 = prod_i (1 - P_i(D_i Tp)).
  sol.p_compute_bound = std::exp(log_all_survive(p, tp));
  // eq. 6 in survival form: int_0^Tp P(min_i B_i / D_i > x) dx ...
  auto survive = [&](double x) { return std::exp(log_all_survive(p, x)); };
  double expected = integrate(survive, break_points(p, 0.0, tp));
  if (p.model == BandwidthModel::untruncated) {
    // ... minus int_-inf^0 P(T < x) dx for the negative throughputs eq. 5 admits.
    double lo = 0.0;
    for (std::size_t i = 0; i < p.stage_data.size(); ++i)
      lo = std::min(lo, (p.bandwidth[i].mean - kTailSigmas * p.bandwidth[i].stddev) / p.stage_data[i]);
    auto fail = [&](double x) { return -std::expm1(log_all_survive(p, x)); };
    if (lo < 0.0) expected -= integrate(fail, break_points(p, lo, 0.0));
  }
  sol.expected_throughput_fps = expected;
  return sol;
}

Json expected_throughput_solution_to_json(const ExpectedThroughputSolution& solution) {
  return Json{{"expected_throughput", solution.expected_throughput_fps},
              {"p_compute_bound", solution.p_compute_bound}};
}

Json solve_expected_throughput_json(const Json& problem) {
  return expected_throughput_solution_to_json(
      solve_expected_throughput(parse_expected_throughput_problem(problem)));
}

}  // namespace coinfer
