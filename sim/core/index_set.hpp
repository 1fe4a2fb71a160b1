#pragma once
/// A set of small indices served lowest first, kept as one bit per index: what an event loop holds
/// of the activities done and not yet handled (positions in its list of activities in flight).
/// Unlike std::set, an insert allocates nothing (a tree node each, and its line out of the cache
/// at the next insert), and its memory is a bit per index up to the largest ever inserted.
///
///     IndexSet s;
///     s.insert(7);
///     s.insert(3);
///     s.lowest();   // 3
///     s.erase(3);   // true; erase(3) again: false
///
/// lowest() scans the words from the lowest index that may be set, which only an insert below it
/// lowers: over a run of inserts and lowest-first erases it scans each word about once.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace coinfer {

class IndexSet {
 public:
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  bool contains(std::size_t i) const {
    return i / kBits < words_.size() && (words_[i / kBits] >> (i % kBits) & 1U) != 0;
  }
  /// Adds `i`; false when it was there.
  bool insert(std::size_t i) {
    if (i / kBits >= words_.size()) words_.resize(i / kBits + 1, 0);
    std::uint64_t& w = words_[i / kBits];
    const std::uint64_t bit = std::uint64_t{1} << (i % kBits);
    if ((w & bit) != 0) return false;
    w |= bit;
    ++count_;
    if (i / kBits < first_word_) first_word_ = i / kBits;
    return true;
  }
  /// Removes `i`; false when it was not there.
  bool erase(std::size_t i) {
    if (!contains(i)) return false;
    words_[i / kBits] &= ~(std::uint64_t{1} << (i % kBits));
    --count_;
    return true;
  }
  /// The lowest index in the set (it must not be empty).
  std::size_t lowest() {
    while (words_[first_word_] == 0) ++first_word_;
    return first_word_ * kBits + static_cast<std::size_t>(std::countr_zero(words_[first_word_]));
  }

 private:
  static constexpr std::size_t kBits = 64;
  std::vector<std::uint64_t> words_;
  std::size_t count_ = 0;
  /// No word below it has a bit set.
  std::size_t first_word_ = std::numeric_limits<std::size_t>::max();
};

}  // namespace coinfer
