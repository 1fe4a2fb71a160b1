#include "schedulers/cbo/isotonic_regression.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <stdexcept>

namespace coinfer::cbo {
namespace {

// Pools block `b` into block `a` (a comes first): the weighted mean of their values.
void pool(IsotonicBlock& a, const IsotonicBlock& b) {
  const double na = static_cast<double>(a.count), nb = static_cast<double>(b.count);
  a.value = (a.value * na + b.value * nb) / (na + nb);
  a.count += b.count;
  a.upper = b.upper;
}

// One block per distinct score, by increasing score; values are sums until `finish` divides.
std::vector<IsotonicBlock> blocks_by_score(const ScoredFrames& train) {
  std::vector<std::size_t> order(train.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return train.confidence[x] < train.confidence[y]; });
  std::vector<IsotonicBlock> blocks;
  for (const std::size_t i : order) {
    const double s = train.confidence[i], y = train.correct[i] ? 1.0 : 0.0;
    if (blocks.empty() || blocks.back().lower != s) blocks.push_back({s, s, 0.0, 0});
    blocks.back().value += y;
    ++blocks.back().count;
  }
  for (auto& b : blocks) b.value /= static_cast<double>(b.count);
  return blocks;
}

}  // namespace

IsotonicFit fit_isotonic(const ScoredFrames& train) {
  if (train.size() == 0 || train.correct.size() != train.size())
    throw std::invalid_argument("fit_isotonic: empty training set or sizes differ");
  IsotonicFit fit;
  for (const auto& block : blocks_by_score(train)) {
    fit.blocks.push_back(block);
    // PAV: while the newest block does not rise above its left neighbour, pool them.
    while (fit.blocks.size() > 1 && fit.blocks[fit.blocks.size() - 2].value >= fit.blocks.back().value) {
      const IsotonicBlock last = fit.blocks.back();
      fit.blocks.pop_back();
      pool(fit.blocks.back(), last);
    }
  }
  return fit;
}

double isotonic_apply(const IsotonicFit& fit, double score) {
  assert(!fit.blocks.empty());
  // The first block whose lower score is above `score`; the one before it holds the value.
  const auto after = std::upper_bound(fit.blocks.begin(), fit.blocks.end(), score,
                                      [](double s, const IsotonicBlock& b) { return s < b.lower; });
  return after == fit.blocks.begin() ? fit.blocks.front().value : std::prev(after)->value;
}

}  // namespace coinfer::cbo
