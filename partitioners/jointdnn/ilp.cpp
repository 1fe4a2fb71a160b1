#include "partitioners/jointdnn/ilp.hpp"

#include <glpk.h>

#include <algorithm>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "sim/core/error.hpp"

// Formulation ([JointDNN §2.4], adapted to skips and to "each crossing paid once").
// The paper's binaries m_{i,j}, c_{i,j} (layers i..j as one group on the mobile / cloud) and its
// crossing products u_{i,j} = m_{i,j} * c_{j+1,k}, d_{i,j} = c_{i,j} * m_{j+1,k} (eq. 6-7) become four
// families of transition binaries, 4 N(N+1)/2 in all as in the paper:
//   z[p,i,j,s] = 1: layers i..j run as one group on side s and layer i-1 ran on side p
//   (p = mobile for i = 1: the input starts there). A schedule is a path of groups:
//   source:  sum_{j,s} z[m,1,j,s] = 1
//   flow:    for j = 1..N-1, s:  sum_{p,i} z[p,i,j,s] = sum_{k,s'} z[s,j+1,k,s']
// which implies eq. 5 (every layer in exactly one group) and, unlike the product linearisation,
// keeps the LP relaxation a shortest-path flow (tight bounds for branch and bound).
//   y[l] = sum_{p, i <= l <= j} z[p,i,j,c]      (1 iff layer l runs on the cloud; y[0] = 0),
//          as y[l-1] + sum_{p,k} z[p,l,k,c] - sum_{p,i} z[p,i,l-1,c] (O(N) terms a row)
//   up[j] >= sum_k z[m,j+1,k,c],  dn[j] >= sum_k z[c,j+1,k,m]    (chain consumer j+1, unless detached)
//   dn[N] >= y[N]                                                 (the result ends on the mobile)
//   up[a] >= y[b] - y[a],  dn[a] >= y[a] - y[b]                    (every skip [a, b])
// One up/dn per output pays each crossing once, however many consumers need it. Crossing costs are
// >= 0, so up/dn stay continuous: at an optimum they sit on their (integral) lower bound or cost 0.
//   latency  (eq. 2-4)  = sum z Tside(i,j) + sum up_j U_j + dn_j D_j + sum y_l Wt_l
//   energy   (eq. 8-10) = sum_{s = m} z Em(i,j) + sum up_j EU_j + dn_j ED_j + sum y_l We_l
//   cloud    (eq. 19)   = sum_{s = c} z Tc(i,j)
// Minimise latency or energy subject to latency <= max_latency (QoS, eq. 20), energy <= max_energy
// (battery, eq. 18), cloud <= max_cloud_time (eq. 19) when given.
namespace coinfer::jointdnn {
namespace {

using Row = std::vector<std::pair<int, double>>;  // (column, coefficient)

struct ProbDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};
using ProbPtr = std::unique_ptr<glp_prob, ProbDeleter>;

/// Column numbering (GLPK columns are 1-based).
class Columns {
 public:
  explicit Columns(int n) : n_(n) {}
  int z(Side prev, int i, int j, Side s) const {  // i <= j, 1-based layers
    const int pair = (i - 1) * n_ - (i - 1) * (i - 2) / 2 + (j - i);
    return 1 + 4 * pair + 2 * index(prev) + index(s);
  }
  int transitions() const { return 2 * n_ * (n_ + 1); }
  int y(int l) const { return transitions() + l; }                // l = 1..N
  int up(int j) const { return transitions() + n_ + 1 + j; }      // j = 0..N
  int dn(int j) const { return transitions() + 2 * n_ + 2 + j; }  // j = 0..N
  int count() const { return transitions() + 3 * n_ + 2; }
  static int index(Side s) { return s == Side::cloud ? 1 : 0; }

 private:
  int n_;
};

constexpr Side kSides[2] = {Side::mobile, Side::cloud};

void add_term(Row& row, int col, double coef) {
  if (coef != 0.0) row.emplace_back(col, coef);
}

/// The three resource expressions over the columns.
struct Expressions {
  Row latency, energy, cloud;
};

Expressions resource_rows(const Problem& p, const Columns& col) {
  Expressions e;
  const int n = p.layers;
  for (int i = 1; i <= n; ++i)
    for (int j = i; j <= n; ++j)
      for (Side prev : kSides) {
        add_term(e.latency, col.z(prev, i, j, Side::mobile), p.group_time_s(i, j, Side::mobile));
        add_term(e.latency, col.z(prev, i, j, Side::cloud), p.group_time_s(i, j, Side::cloud));
        add_term(e.energy, col.z(prev, i, j, Side::mobile), p.group_energy_j(i, j, Side::mobile));
        add_term(e.cloud, col.z(prev, i, j, Side::cloud), p.group_time_s(i, j, Side::cloud));
      }
  for (int j = 0; j <= n; ++j) {
    add_term(e.latency, col.up(j), p.upload_time_s[j]);
    add_term(e.latency, col.dn(j), p.download_time_s[j]);
    if (p.has_energy()) {
      add_term(e.energy, col.up(j), p.upload_energy_j[j]);
      add_term(e.energy, col.dn(j), p.download_energy_j[j]);
    }
  }
  for (int l = 1; l <= n; ++l) {
    add_term(e.latency, col.y(l), p.weight_download_time_s[l - 1]);
    add_term(e.energy, col.y(l), p.weight_download_energy_j[l - 1]);
  }
  return e;
}

void add_row(glp_prob* lp, const Row& row, int bound_type, double lo, double hi) {
  const int r = glp_add_rows(lp, 1);
  std::vector<int> ind(1);
  std::vector<double> val(1);
  for (const auto& [c, v] : row) {
    ind.push_back(c);
    val.push_back(v);
  }
  glp_set_mat_row(lp, r, static_cast<int>(row.size()), ind.data(), val.data());
  glp_set_row_bnds(lp, r, bound_type, lo, hi);
}

void add_columns(glp_prob* lp, const Columns& col, int n) {
  glp_add_cols(lp, col.count());
  for (int i = 1; i <= n; ++i)
    for (int j = i; j <= n; ++j)
      for (Side prev : kSides)
        for (Side s : kSides) {
          glp_set_col_kind(lp, col.z(prev, i, j, s), GLP_BV);
          if (i == 1 && prev == Side::cloud) glp_set_col_bnds(lp, col.z(prev, i, j, s), GLP_FX, 0.0, 0.0);
        }
  for (int c = col.transitions() + 1; c <= col.count(); ++c) glp_set_col_bnds(lp, c, GLP_DB, 0.0, 1.0);
}

/// Source and flow conservation rows: the groups form one path from layer 1 to layer N.
void add_paths(glp_prob* lp, const Columns& col, int n) {
  Row source;
  for (int j = 1; j <= n; ++j)
    for (Side s : kSides) source.emplace_back(col.z(Side::mobile, 1, j, s), 1.0);
  add_row(lp, source, GLP_FX, 1.0, 1.0);
  for (int j = 1; j < n; ++j)
    for (Side s : kSides) {
      Row flow;
      for (int i = 1; i <= j; ++i)
        for (Side prev : kSides) flow.emplace_back(col.z(prev, i, j, s), 1.0);
      for (int k = j + 1; k <= n; ++k)
        for (Side next : kSides) flow.emplace_back(col.z(s, j + 1, k, next), -1.0);
      add_row(lp, flow, GLP_FX, 0.0, 0.0);
    }
}

void add_crossings(glp_prob* lp, const Problem& p, const Columns& col) {
  const int n = p.layers;
  // y[l] = y[l-1] + (cloud groups starting at l) - (cloud groups ending at l-1), y[0] = 0: the sum
  // over the groups covering l, written with O(N) terms a row instead of O(N^2) (27 million
  // non-zeros for a 427-layer DenseNet-121 otherwise; the same polytope).
  for (int l = 1; l <= n; ++l) {
    Row side{{col.y(l), 1.0}};
    for (int k = l; k <= n; ++k)
      for (Side prev : kSides) side.emplace_back(col.z(prev, l, k, Side::cloud), -1.0);
    if (l > 1) {
      side.emplace_back(col.y(l - 1), -1.0);
      for (int i = 1; i < l; ++i)
        for (Side prev : kSides) side.emplace_back(col.z(prev, i, l - 1, Side::cloud), 1.0);
    }
    add_row(lp, side, GLP_FX, 0.0, 0.0);
  }
  for (int j = 0; j < n; ++j) {  // chain consumer j+1: the transition into the group at j+1
    if (!p.reads_previous(j + 1)) continue;
    Row up{{col.up(j), 1.0}}, dn{{col.dn(j), 1.0}};
    for (int k = j + 1; k <= n; ++k) {
      up.emplace_back(col.z(Side::mobile, j + 1, k, Side::cloud), -1.0);
      dn.emplace_back(col.z(Side::cloud, j + 1, k, Side::mobile), -1.0);
    }
    add_row(lp, up, GLP_LO, 0.0, 0.0);
    add_row(lp, dn, GLP_LO, 0.0, 0.0);
  }
  add_row(lp, {{col.dn(n), 1.0}, {col.y(n), -1.0}}, GLP_LO, 0.0, 0.0);  // result back to the mobile
  for (const auto& s : p.skips) {  // up[a] >= y[b] - y[a], dn[a] >= y[a] - y[b]
    Row up{{col.up(s.from_layer), 1.0}, {col.y(s.to_layer), -1.0}};
    Row dn{{col.dn(s.from_layer), 1.0}, {col.y(s.to_layer), 1.0}};
    if (s.from_layer >= 1) {
      up.emplace_back(col.y(s.from_layer), 1.0);
      dn.emplace_back(col.y(s.from_layer), -1.0);
    }
    add_row(lp, up, GLP_LO, 0.0, 0.0);
    add_row(lp, dn, GLP_LO, 0.0, 0.0);
  }
}

void set_objective(glp_prob* lp, const Row& row) {
  glp_set_obj_dir(lp, GLP_MIN);
  for (const auto& [c, v] : row) glp_set_obj_coef(lp, c, glp_get_obj_coef(lp, c) + v);
}

std::vector<Group> read_groups(glp_prob* lp, const Columns& col, int n) {
  std::vector<Group> groups;
  for (int i = 1; i <= n; ++i)
    for (int j = i; j <= n; ++j)
      for (Side prev : kSides)
        for (Side s : kSides)
          if (glp_mip_col_val(lp, col.z(prev, i, j, s)) > 0.5) groups.push_back({i, j, s});
  std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.first < b.first; });
  return groups;
}

/// Runs branch and cut; false when the maxima cannot be met.
bool run_glpk(glp_prob* lp) {
  glp_iocp parm;
  glp_init_iocp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  parm.mip_gap = 0.0;
  parm.tol_obj = 1e-11;  // prune a node only when it cannot improve beyond round-off
  const int previous = glp_term_out(GLP_OFF);
  const int rc = glp_intopt(lp, &parm);
  glp_term_out(previous);
  if (rc == GLP_ENOPFS) return false;
  if (rc != 0) throw Error(fmt::format("jointdnn-ilp: GLPK glp_intopt failed (code {})", rc));
  const int status = glp_mip_status(lp);
  if (status == GLP_NOFEAS) return false;
  if (status != GLP_OPT) throw Error(fmt::format("jointdnn-ilp: GLPK ended with status {}", status));
  return true;
}

}  // namespace

Solution solve_ilp(const Problem& problem) {
  const int n = problem.layers;
  const Columns col(n);
  ProbPtr lp(glp_create_prob());
  add_columns(lp.get(), col, n);
  add_paths(lp.get(), col, n);
  add_crossings(lp.get(), problem, col);
  const Expressions e = resource_rows(problem, col);
  set_objective(lp.get(), problem.objective == Objective::energy ? e.energy : e.latency);
  if (problem.max_latency_s) add_row(lp.get(), e.latency, GLP_UP, 0.0, *problem.max_latency_s);      // eq. 20
  if (problem.max_energy_j) add_row(lp.get(), e.energy, GLP_UP, 0.0, *problem.max_energy_j);         // eq. 18
  if (problem.max_cloud_time_s) add_row(lp.get(), e.cloud, GLP_UP, 0.0, *problem.max_cloud_time_s);  // eq. 19
  if (!run_glpk(lp.get())) return Solution{};
  return make_solution(problem, read_groups(lp.get(), col, n));
}

}  // namespace coinfer::jointdnn
