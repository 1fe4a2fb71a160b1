#pragma once
// Constants the replay's event loop (dispatcher*) and the parts it drives share.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace coinfer::replay {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
/// The frame of a transfer that belongs to no frame: a scheduler's probe (Scheduler::take_probes).
inline constexpr std::size_t kNoFrame = std::numeric_limits<std::size_t>::max();
/// The job index of a compute task that belongs to a frame (not a background job).
inline constexpr std::size_t kNoJob = std::numeric_limits<std::size_t>::max();
/// The task index of a background job (Scheduler::take_background).
inline constexpr std::size_t kNoTask = std::numeric_limits<std::size_t>::max();
/// Timers within this of the clock are due (SimGrid's default timing precision is 1e-9 s).
inline constexpr double kTimeEps = 1e-9;

/// A transfer's size in whole bytes, as SimGrid sends it.
inline std::uint64_t payload_bytes(double bytes) {
  return static_cast<std::uint64_t>(std::llround(std::max(0.0, bytes)));
}

/// A first-in first-out queue on one vector: what the replay keeps per user (a stream's frames
/// waiting at its gate, its window of live frames). Unlike std::deque, which allocates a 512-byte
/// block even when empty, an empty one holds no memory beyond itself, so 10,000 users cost
/// kilobytes, not megabytes. The consumed front is reclaimed once it is half the vector.
template <class T>
class FifoVector {
 public:
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  T& front() { return items_[head_]; }
  T& back() { return items_.back(); }
  /// Its first item (the storage its items occupy, in order).
  const T* data() const { return items_.data() + head_; }
  T& operator[](std::size_t i) { return items_[head_ + i]; }
  const T& operator[](std::size_t i) const { return items_[head_ + i]; }
  void push_back(const T& value) { items_.push_back(value); }
  void resize(std::size_t n, const T& value) { items_.resize(head_ + n, value); }
  void pop_front() {
    if (++head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= 16 && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

 private:
  std::vector<T> items_;
  std::size_t head_ = 0;
};

}  // namespace coinfer::replay
