#pragma once
/// Who holds and who needs which elements of a tensor, and what the GO-relayed exchange between
/// two MoDNN stages costs (Fig. 3: workers reduce shared parts to the GO, the GO maps them out).
///
/// Nodes 0..k-1 are the workers, node k the GO. For every element some node needs but does not
/// hold: if the GO lacks it, the lowest-index worker holding it sends it to the GO (one copy,
/// however many nodes need it); then the GO sends it to every worker that needs it. Each copy is
/// counted per logical pair (sender, the node it is for), so a plan can tag relayed halos with
/// their neighbour channel (MoDNN sec. 4.2: BODP's 2 neighbours vs the grid's more).
///
///     ElementMasks held(2, 8), need(2, 8);        // 1 worker + GO, 8 elements
///     auto x = exchange(held, need);              // x.reduce[j][i], x.map[i][j]: elements
#include <cstdint>
#include <vector>

#include "partitioners/modnn/conv_split.hpp"

namespace coinfer::modnn {

/// One 0/1 mask of `elements` entries per node.
struct ElementMasks {
  ElementMasks(std::size_t nodes, std::int64_t elements);
  std::vector<std::vector<std::uint8_t>> mask;
  std::int64_t elements = 0;
  std::size_t nodes() const { return mask.size(); }
  void set_all(std::size_t node);
  /// Marks a spatial region of every channel of a (C, H, W) tensor.
  void set_region(std::size_t node, const Region& region, const Shape& chw);
  void set_indices(std::size_t node, const std::vector<std::int64_t>& indices);
};

struct Exchange {
  /// reduce[j][i]: elements worker j sends the GO for node i (i == k: the GO needs them itself).
  /// A copy several nodes need is counted once: for the GO if it needs it, else for the
  /// lowest-index worker that does.
  std::vector<std::vector<std::int64_t>> reduce;
  /// map[i][j]: elements the GO sends worker i that worker j reduced (j == k: the GO held them).
  std::vector<std::vector<std::int64_t>> map;

  std::int64_t reduced_by(std::size_t worker) const;  ///< sum over i of reduce[worker][i]
  std::int64_t mapped_to(std::size_t worker) const;   ///< sum over j of map[worker][j]
};

/// Throws `Error` when an element is needed but nobody holds it (a partitioner bug).
Exchange exchange(const ElementMasks& held, const ElementMasks& need);

}  // namespace coinfer::modnn
