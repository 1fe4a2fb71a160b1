#include "partitioners/modnn/data_flow.hpp"

#include <algorithm>

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

Exchange exchange(const ElementMasks& held, const ElementMasks& need) {
  const std::size_t k = held.nodes() - 1;
  Exchange x{std::vector<std::int64_t>(k, 0), std::vector<std::int64_t>(k, 0)};
  for (std::size_t e = 0; e < static_cast<std::size_t>(held.elements); ++e) {
    bool requested = need.mask[k][e] && !held.mask[k][e];
    for (std::size_t i = 0; i < k; ++i)
      if (need.mask[i][e] && !held.mask[i][e]) {
        ++x.map[i];
        requested = true;
      }
    if (!requested || held.mask[k][e]) continue;
    std::size_t j = 0;
    while (j < k && !held.mask[j][e]) ++j;
    if (j == k) throw Error(fmt::format("MoDNN data flow: element {} is needed but held by no node", e));
    ++x.reduce[j];
  }
  return x;
}

}  // namespace coinfer::modnn
