#pragma once
/// The JointDNN graph ([JointDNN §2.3, Fig. 6 and Table 1]) with the residual transformation of
/// Fig. 7 generalised to any set of skips, as an implicit DAG shared by the exact solvers.
///
/// Fig. 6: a node M_{i:j} / C_{i:j} says "layers i..j run as one group on the mobile / cloud"; an edge
/// joins a group to the group that follows it and carries the group's cost plus the crossing of the
/// group's input (EU/ED of Table 1). Here a node sits *between* groups: node (j, code) means layers
/// 1..j are scheduled and the last group ended at layer j; an edge from (i-1, code) is the group
/// [i..k] on one side and leads to (k, code'). The paper's graph remembers only the previous layer;
/// Fig. 7 adds one copy of the chain per side of the residual source so the block's end knows where
/// the source ran. We do the same for every "open" skip source a (a < j with a skip [a, b], b > j),
/// and remember the *set of sides* holding its output: {mobile}, {cloud} or both (once copied, a
/// second consumer on the far side pays nothing, since each crossing is paid once). Hence
///   code = side(layer j) + 2 * sum_t digit_t * 3^t,  digit = 0 {mobile}, 1 {cloud}, 2 {both},
/// over the open sources in increasing order. A chain or non-overlapping residual blocks keep at
/// most one or two sources open, so the graph has O(N) nodes and O(N^2) edges as in the paper; w
/// overlapping skips multiply the nodes per boundary by 3^w (capped by `kMaxOpenSkips`).
#include <cstddef>
#include <vector>

#include "partitioners/jointdnn/jointdnn_problem.hpp"

namespace coinfer::jointdnn {

/// Most skip sources open at one layer boundary the graph accepts (3^12 = 531441 states).
inline constexpr int kMaxOpenSkips = 12;

/// The group [from + 1 .. last] on side `on`, leading to node (last, to_code), and its full cost:
/// group time/energy, crossings it triggers, weight downloads, and the final download when last = N.
struct Edge {
  int last = 0;
  Side on = Side::mobile;
  std::size_t to_code = 0;
  Cost cost;
};

/// Most skip sources open at one layer boundary of `problem` (a source a is open at j when a < j and
/// it feeds a layer after j); the graph takes problems where this is at most `kMaxOpenSkips`.
int most_open_skips(const Problem& problem);

class JointDnnGraph {
 public:
  /// Throws `InputError` (path `skips`) when more than `kMaxOpenSkips` skip sources overlap.
  explicit JointDnnGraph(const Problem& problem);

  int layers() const { return layers_; }
  /// Number of codes at boundary j (0..N); the only start node is (0, 0) (input on the mobile) and
  /// every node at boundary N is an end node.
  std::size_t states(int boundary) const { return states_[boundary]; }
  /// Fills `out` with every edge leaving node (boundary, code), boundary < N.
  void edges_from(int boundary, std::size_t code, std::vector<Edge>& out) const;

 private:
  const Problem& problem_;
  int layers_ = 0;
  std::vector<std::vector<int>> open_;        ///< [j]: open skip sources at boundary j, increasing
  std::vector<std::vector<int>> sources_of_;  ///< [b]: a for every skip [a, b]
  std::vector<std::size_t> states_;           ///< [j]: 2 * 3^|open_[j]|
};

}  // namespace coinfer::jointdnn
