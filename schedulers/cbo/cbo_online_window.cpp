#include "schedulers/cbo/cbo_online_window.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "schedulers/cbo/label_dp.hpp"

namespace coinfer::cbo {

OnlineWindow::OnlineWindow(Problem parameters) : problem_(std::move(parameters)) {
  problem_.frames.clear();
  problem_.uplink_free_at_s = 0;
}

std::size_t OnlineWindow::add(Frame frame) {
  if (frame.sizes_bits.size() != problem_.resolutions())
    throw std::invalid_argument("cbo::OnlineWindow::add: one size per resolution expected");
  problem_.frames.push_back(std::move(frame));
  index_.push_back(next_index_);
  return next_index_++;
}

bool OnlineWindow::erase(std::size_t index) {
  const auto it = std::lower_bound(index_.begin(), index_.end(), index);
  if (it == index_.end() || *it != index) return false;
  const auto k = it - index_.begin();
  index_.erase(it);
  problem_.frames.erase(problem_.frames.begin() + k);
  return true;
}

OnlineSolution OnlineWindow::solve(double uplink_free_at_s, ResolutionPolicy policy) {
  if (solved_ && uplink_free_at_s < problem_.uplink_free_at_s)
    throw std::invalid_argument("cbo::OnlineWindow::solve: uplink_free_at_s decreased");
  solved_ = true;
  problem_.uplink_free_at_s = uplink_free_at_s;
  // A frame expired at this time stays expired later: its earliest upload end only grows.
  std::vector<std::size_t> all(problem_.resolutions());
  std::iota(all.begin(), all.end(), std::size_t{0});
  std::size_t kept = 0;
  for (std::size_t k = 0; k < problem_.frames.size(); ++k) {
    if (!detail::can_offload(problem_, problem_.frames[k], all, uplink_free_at_s)) continue;
    if (kept != k) {
      problem_.frames[kept] = std::move(problem_.frames[k]);
      index_[kept] = index_[k];
    }
    ++kept;
  }
  problem_.frames.resize(kept);
  index_.resize(kept);

  auto s = solve_online(problem_, policy, FrameWindow::kDeadline);
  for (auto& i : s.offload) i = index_[i];
  return s;
}

}  // namespace coinfer::cbo
