#include "partitioners/modnn/data_flow.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::modnn {

ElementMasks::ElementMasks(std::size_t nodes, std::int64_t n)
    : mask(nodes, std::vector<std::uint8_t>(static_cast<std::size_t>(n), 0)), elements(n) {}

void ElementMasks::set_all(std::size_t node) { std::fill(mask[node].begin(), mask[node].end(), 1); }

void ElementMasks::set_region(std::size_t node, const Region& r, const Shape& chw) {
  auto& m = mask[node];
  for (std::int64_t c = 0; c < chw[0]; ++c)
    for (auto h = r.rows.begin; h < r.rows.end; ++h) {
      const auto row = (c * chw[1] + h) * chw[2];
      std::fill(m.begin() + row + r.cols.begin, m.begin() + row + r.cols.end, 1);
    }
}

void ElementMasks::set_indices(std::size_t node, const std::vector<std::int64_t>& indices) {
  for (auto i : indices) mask[node][static_cast<std::size_t>(i)] = 1;
}

std::int64_t Exchange::reduced_by(std::size_t worker) const {
  return std::accumulate(reduce[worker].begin(), reduce[worker].end(), std::int64_t{0});
}

std::int64_t Exchange::mapped_to(std::size_t worker) const {
  return std::accumulate(map[worker].begin(), map[worker].end(), std::int64_t{0});
}

Exchange exchange(const ElementMasks& held, const ElementMasks& need) {
  const std::size_t k = held.nodes() - 1;
  const std::vector<std::int64_t> zeros(k + 1, 0);
  Exchange x{std::vector<std::vector<std::int64_t>>(k, zeros),
             std::vector<std::vector<std::int64_t>>(k, zeros)};
  for (std::size_t e = 0; e < static_cast<std::size_t>(held.elements); ++e) {
    // The node the reduced copy is for: the GO when it needs it, else the first worker needing it.
    std::size_t first = k + 1;
    if (need.mask[k][e] && !held.mask[k][e]) first = k;
    for (std::size_t i = 0; i < k && first == k + 1; ++i)
      if (need.mask[i][e] && !held.mask[i][e]) first = i;
    if (first == k + 1) continue;  // nobody lacks it
    std::size_t from = k;          // where the GO's copy comes from
    if (!held.mask[k][e]) {
      from = 0;
      while (from < k && !held.mask[from][e]) ++from;
      if (from == k) throw Error(fmt::format("MoDNN data flow: element {} is needed but held by no node", e));
      ++x.reduce[from][first];
    }
    for (std::size_t i = 0; i < k; ++i)
      if (need.mask[i][e] && !held.mask[i][e]) ++x.map[i][from];
  }
  return x;
}

}  // namespace coinfer::modnn
