#include "partitioners/modnn/mscc.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include <Spectra/SymEigsSolver.h>
#include <fmt/format.h>
#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include "partitioners/modnn/kmeans.hpp"
#include "partitioners/modnn/solver_limits.hpp"
#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

using SpMat = Eigen::SparseMatrix<double, Eigen::RowMajor>;
constexpr Eigen::Index kDenseLimit = 400;  // smaller side up to this: dense eigensolver

/// y = N x with N = A^T A (`tall`: A has more rows than columns) or N = A A^T, never formed.
class NormalMatrixOp {
 public:
  using Scalar = double;
  NormalMatrixOp(const SpMat& a, bool tall) : a_(a), tall_(tall), tmp_(tall ? a.rows() : a.cols()) {}
  Eigen::Index rows() const { return tall_ ? a_.cols() : a_.rows(); }
  Eigen::Index cols() const { return rows(); }
  void perform_op(const double* x_in, double* y_out) const {
    Eigen::Map<const Eigen::VectorXd> x(x_in, rows());
    Eigen::Map<Eigen::VectorXd> y(y_out, rows());
    if (tall_) {
      tmp_.noalias() = a_ * x;
      y.noalias() = a_.transpose() * tmp_;
    } else {
      tmp_.noalias() = a_.transpose() * x;
      y.noalias() = a_ * tmp_;
    }
  }

 private:
  const SpMat& a_;
  bool tall_;
  mutable Eigen::VectorXd tmp_;
};

/// Top `nev` eigenpairs (descending) of the normal matrix of `a`.
struct EigenPairs {
  Eigen::VectorXd values;
  Eigen::MatrixXd vectors;
};

EigenPairs top_eigen_dense(const SpMat& a, bool tall, Eigen::Index nev) {
  const SpMat n_sparse = tall ? SpMat(a.transpose() * a) : SpMat(a * a.transpose());
  const Eigen::MatrixXd n = Eigen::MatrixXd(n_sparse);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(n);
  if (es.info() != Eigen::Success) throw Error("mscc: dense eigensolver failed");
  EigenPairs out{Eigen::VectorXd(nev), Eigen::MatrixXd(n.rows(), nev)};
  for (Eigen::Index t = 0; t < nev; ++t) {  // ascending order -> take from the end
    out.values(t) = es.eigenvalues()(n.rows() - 1 - t);
    out.vectors.col(t) = es.eigenvectors().col(n.rows() - 1 - t);
  }
  return out;
}

EigenPairs top_eigen_lanczos(const SpMat& a, bool tall, Eigen::Index nev, std::uint64_t seed) {
  NormalMatrixOp op(a, tall);
  const Eigen::Index dim = op.rows();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-0.5, 0.5);
  Eigen::VectorXd start(dim);
  for (Eigen::Index i = 0; i < dim; ++i) start(i) = uniform(rng);
  // Relative tolerance 1e-6 on the eigenvalues: ample for the k-means that follows, and about 25%
  // fewer products than 1e-8 on FC6-sized layers. A larger Krylov subspace converges in fewer
  // restarts; retry with a doubled one if needed.
  for (Eigen::Index ncv = std::min(dim, std::max<Eigen::Index>(2 * nev + 1, 24));;
       ncv = std::min(dim, 2 * ncv)) {
    Spectra::SymEigsSolver<NormalMatrixOp> eigs(op, nev, ncv);
    eigs.init(start.data());
    eigs.compute(Spectra::SortRule::LargestAlge, 1000, 1e-6);
    if (eigs.info() == Spectra::CompInfo::Successful) return {eigs.eigenvalues(), eigs.eigenvectors()};
    if (ncv == dim) throw Error("mscc: the partial SVD (Lanczos) did not converge");
  }
}

/// Z of Dhillon's algorithm for the non-empty rows and columns, as row-major points, plus sigma.
struct Embedding {
  std::vector<double> points;                      ///< (non-empty rows, then non-empty columns) x l
  std::vector<std::int64_t> row_point, col_point;  ///< point index or -1 when empty
  std::vector<double> singular_values;
};

Embedding spectral_embedding(const SparsePattern& p, std::int64_t l, std::uint64_t seed) {
  const auto d1 = row_degrees(p), d2 = col_degrees(p);
  auto inv_sqrt = [](std::int64_t d) { return d > 0 ? 1.0 / std::sqrt(double(d)) : 0.0; };
  // A_n = D1^-1/2 A D2^-1/2 (empty rows / columns stay zero).
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(p.entries.size());
  for (const auto& e : p.entries)
    triplets.emplace_back(Eigen::Index(e.row), Eigen::Index(e.col),
                          inv_sqrt(d1[e.row]) * inv_sqrt(d2[e.col]));
  SpMat an(Eigen::Index(p.rows), Eigen::Index(p.cols));
  an.setFromTriplets(triplets.begin(), triplets.end());
  triplets = {};

  const bool tall = p.rows >= p.cols;
  const Eigen::Index nev = l + 1, dim = tall ? p.cols : p.rows;
  const auto pairs =
      dim <= kDenseLimit ? top_eigen_dense(an, tall, nev) : top_eigen_lanczos(an, tall, nev, seed);
  // Singular vectors of the small side are the eigenvectors; the other side's are A_n v / sigma.
  Eigen::VectorXd sigma = pairs.values.cwiseMax(0.0).cwiseSqrt();
  Eigen::MatrixXd small = pairs.vectors;
  Eigen::MatrixXd other = tall ? Eigen::MatrixXd(an * small) : Eigen::MatrixXd(an.transpose() * small);
  for (Eigen::Index t = 0; t < nev; ++t) other.col(t) *= sigma(t) > 1e-12 ? 1.0 / sigma(t) : 0.0;
  const Eigen::MatrixXd& u = tall ? other : small;
  const Eigen::MatrixXd& v = tall ? small : other;

  Embedding z;
  z.singular_values.assign(sigma.data(), sigma.data() + sigma.size());
  z.row_point.assign(std::size_t(p.rows), -1);
  z.col_point.assign(std::size_t(p.cols), -1);
  std::int64_t next = 0;
  auto add_point = [&](const Eigen::MatrixXd& m, Eigen::Index i, double scale) {
    for (Eigen::Index t = 1; t <= l; ++t) z.points.push_back(scale * m(i, t));  // vectors 2..l+1
    return next++;
  };
  for (std::int64_t i = 0; i < p.rows; ++i)
    if (d1[i] > 0) z.row_point[i] = add_point(u, Eigen::Index(i), inv_sqrt(d1[i]));
  for (std::int64_t j = 0; j < p.cols; ++j)
    if (d2[j] > 0) z.col_point[j] = add_point(v, Eigen::Index(j), inv_sqrt(d2[j]));
  return z;
}

/// Labels of the empty rows (or columns): each to the currently smallest cluster.
void place_empty(std::vector<int>& labels, const std::vector<std::int64_t>& point, std::int64_t k) {
  std::vector<std::int64_t> size(std::size_t(k), 0);
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (point[i] >= 0) ++size[labels[i]];
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (point[i] >= 0) continue;
    const auto smallest = std::min_element(size.begin(), size.end()) - size.begin();
    labels[i] = static_cast<int>(smallest);
    ++size[smallest];
  }
}

}  // namespace

std::pair<std::int64_t, std::int64_t> count_inside_outside(const SparsePattern& pattern,
                                                           const std::vector<int>& row_cluster,
                                                           const std::vector<int>& col_cluster) {
  std::int64_t inside = 0;
  for (const auto& e : pattern.entries) inside += row_cluster[e.row] == col_cluster[e.col];
  return {inside, std::int64_t(pattern.entries.size()) - inside};
}

MsccProblem parse_mscc_problem(const Json& problem, const std::filesystem::path& base_dir) {
  json_reject_unknown_keys(problem, "",
                           {"rows", "cols", "entries", "matrix_file", "clusters", "seed", "restarts",
                            "max_iterations", "comment"});
  MsccProblem p;
  p.pattern = parse_sparse_pattern(problem, "", {base_dir, kMaxSparseMatrixDimension});
  p.clusters = json_int(problem, "clusters", "", 1, std::min({p.pattern.rows, p.pattern.cols, kMaxWorkers}));
  p.seed = static_cast<std::uint64_t>(json_int(problem, "seed", "", 0));
  p.restarts = json_int_or(problem, "restarts", "", 10, 1, 1000);
  p.max_iterations = json_int_or(problem, "max_iterations", "", 300, 1, 100000);
  return p;
}

MsccResult mscc_cluster(const MsccProblem& problem) {
  const auto& p = problem.pattern;
  const auto k = problem.clusters;
  check_pattern_bounds(p);
  if (k < 1 || k > std::min(p.rows, p.cols))
    throw Error(fmt::format("mscc: clusters must be in [1, min(rows, cols)], got {}", k));
  MsccResult r;
  r.row_cluster.assign(std::size_t(p.rows), 0);
  r.col_cluster.assign(std::size_t(p.cols), 0);
  std::vector<std::int64_t> row_point(std::size_t(p.rows), -1), col_point(std::size_t(p.cols), -1);
  if (k > 1 && !p.entries.empty()) {
    std::int64_t l = 0;
    while ((std::int64_t{1} << l) < k) ++l;  // l = ceil(log2 k)
    auto z = spectral_embedding(p, l, problem.seed);
    const auto km = kmeans(z.points, l,
                           {.clusters = k,
                            .restarts = problem.restarts,
                            .max_iterations = problem.max_iterations,
                            .seed = problem.seed});
    for (std::int64_t i = 0; i < p.rows; ++i)
      if (z.row_point[i] >= 0) r.row_cluster[i] = km.labels[z.row_point[i]];
    for (std::int64_t j = 0; j < p.cols; ++j)
      if (z.col_point[j] >= 0) r.col_cluster[j] = km.labels[z.col_point[j]];
    row_point = std::move(z.row_point);
    col_point = std::move(z.col_point);
    r.singular_values = std::move(z.singular_values);
  }
  place_empty(r.row_cluster, row_point, k);
  place_empty(r.col_cluster, col_point, k);
  std::tie(r.inside, r.outside) = count_inside_outside(p, r.row_cluster, r.col_cluster);
  return r;
}

Json mscc_result_to_json(const MsccResult& result) {
  return {{"row_cluster", result.row_cluster},
          {"col_cluster", result.col_cluster},
          {"inside", result.inside},
          {"outside", result.outside}};
}

Json solve_mscc_json(const Json& problem, const std::filesystem::path& base_dir) {
  return mscc_result_to_json(mscc_cluster(parse_mscc_problem(problem, base_dir)));
}

}  // namespace coinfer::modnn
