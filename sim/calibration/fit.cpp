#include "sim/calibration/fit.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <Eigen/Dense>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

constexpr double kDominantShare = 0.10;
constexpr int kIterations = 100;
constexpr double kMaxStep = 2.0;  // in log space, per iteration

double host_total(const FitFigure& f) {
  double sum = 0.0;
  for (const auto& [c, s] : f.host_s) sum += s;
  return sum;
}

// s0 = exp(mean_j log(ref_j / H_j)) over the fitted figures.
double common_scale(const std::vector<const FitFigure*>& fitted) {
  double sum_log = 0.0;
  for (const auto* f : fitted) sum_log += std::log(f->reference_s / host_total(*f));
  return std::exp(sum_log / static_cast<double>(fitted.size()));
}

// Parameter index per class: one per dominant class, the rest share the last index.
std::map<OpClass, int> parameter_of_class(const std::vector<const FitFigure*>& fitted, int& count) {
  std::vector<OpClass> dominant;
  for (OpClass c : all_op_classes())
    for (const auto* f : fitted) {
      auto it = f->host_s.find(c);
      if (it != f->host_s.end() && it->second >= kDominantShare * host_total(*f)) {
        dominant.push_back(c);
        break;
      }
    }
  std::map<OpClass, int> index;
  count = static_cast<int>(dominant.size());
  for (int k = 0; k < count; ++k) index[dominant[k]] = k;
  bool rest = false;
  for (OpClass c : all_op_classes())
    if (!index.contains(c)) index[c] = count, rest = true;
  if (rest) ++count;
  return index;
}

// Gauss-Newton with a ridge toward theta0 on r_j = log pred_j - log ref_j.
Eigen::VectorXd gauss_newton(const std::vector<const FitFigure*>& fitted, const std::map<OpClass, int>& param,
                             int count, double theta0, double ridge) {
  Eigen::VectorXd theta = Eigen::VectorXd::Constant(count, theta0);
  const auto n = static_cast<Eigen::Index>(fitted.size());
  for (int iter = 0; iter < kIterations; ++iter) {
    Eigen::MatrixXd jac = Eigen::MatrixXd::Zero(n, count);
    Eigen::VectorXd res(n);
    for (Eigen::Index j = 0; j < n; ++j) {
      double pred = 0.0;
      for (const auto& [c, h] : fitted[j]->host_s) {
        const double term = h * std::exp(theta[param.at(c)]);
        pred += term;
        jac(j, param.at(c)) += term;  // d pred / d theta_k = sum_{c in k} h_c s_c
      }
      jac.row(j) /= pred;  // d log pred / d theta_k
      res[j] = std::log(pred / fitted[j]->reference_s);
    }
    const Eigen::MatrixXd lhs = jac.transpose() * jac + ridge * Eigen::MatrixXd::Identity(count, count);
    const Eigen::VectorXd rhs = -(jac.transpose() * res + ridge * (theta.array() - theta0).matrix());
    Eigen::VectorXd step = lhs.ldlt().solve(rhs);
    const double longest = step.cwiseAbs().maxCoeff();
    if (longest > kMaxStep) step *= kMaxStep / longest;
    theta += step;
    if (longest < 1e-12) break;
  }
  return theta;
}

}  // namespace

double predict_s(const std::map<OpClass, double>& scale, const FitFigure& figure) {
  double sum = 0.0;
  for (const auto& [c, h] : figure.host_s) sum += h * scale.at(c);
  return sum;
}

double residual_pct(double predicted_s, double reference_s) {
  return 100.0 * (predicted_s - reference_s) / reference_s;
}

double round_significant(double x, int digits) {
  if (x == 0.0 || !std::isfinite(x)) return x;
  const double p = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(x)))));
  return std::round(x * p) / p;
}

FitResult fit_op_scale(const std::vector<FitFigure>& figures, double ridge) {
  std::vector<const FitFigure*> fitted;
  for (const auto& f : figures) {
    if (!f.fitted) continue;
    if (!(f.reference_s > 0.0) || !(host_total(f) > 0.0))
      throw Error(fmt::format("fit: a fitted figure needs a positive reference ({} s) and host time ({} s)",
                              f.reference_s, host_total(f)));
    fitted.push_back(&f);
  }
  if (fitted.empty()) throw Error("fit: no fitted reference figure");
  FitResult result;
  const double s0 = common_scale(fitted);
  if (fitted.size() == 1) {
    for (OpClass c : all_op_classes()) result.scale[c] = s0;
    result.free_parameters = 1;
  } else {
    int count = 0;
    const auto param = parameter_of_class(fitted, count);
    const Eigen::VectorXd theta = gauss_newton(fitted, param, count, std::log(s0), ridge);
    for (OpClass c : all_op_classes()) result.scale[c] = std::exp(theta[param.at(c)]);
    result.free_parameters = count;
  }
  for (const auto& f : figures) {
    result.predicted_s.push_back(predict_s(result.scale, f));
    result.residual_pct.push_back(residual_pct(result.predicted_s.back(), f.reference_s));
  }
  return result;
}

}  // namespace coinfer
