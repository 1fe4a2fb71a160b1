#pragma once
/// A discrete-event queue: payloads served by date, those of one date in the order they were
/// pushed. The same order as a `std::priority_queue` of (date, push count, payload), in fewer
/// cache lines a pop: the heap holds only 16-byte keys (the date, and the push count and the
/// payload's slot packed in one word), four children to a node, each node's children in one
/// 64-byte line; the payloads wait in a slab until popped. In bench/population_bench.cpp at
/// 10,000 users (a pending release each), the dispatcher's loop, mostly its timer queue, missed
/// the first-level cache 21 times a frame with a binary heap of 40-byte entries and 9 with this
/// (callgrind's cache simulation).
///
///     EventQueue<Timer> q;
///     q.push(2.0, a);
///     q.push(1.0, b);
///     q.push(1.0, c);
///     q.top_s();   // 1.0, q.top() is b; q.pop() returns b, then c, then a
///
/// Limits: 2^24 - 1 payloads pending at once and 2^40 pushes in all; past either, push throws.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"

namespace coinfer {

template <class Payload>
class EventQueue {
 public:
  static constexpr std::size_t kMaxPending = (std::size_t{1} << 24) - 1;
  static constexpr std::uint64_t kMaxPushes = std::uint64_t{1} << 40;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  /// The earliest date (the queue must not be empty).
  double top_s() const { return key(0).at_s; }
  /// The payload served next (the queue must not be empty).
  const Payload& top() const { return slab_[slot_of(key(0))]; }

  void push(double at_s, Payload payload) {
    if (size_ == kMaxPending) throw Error("event queue: more than 2^24 - 1 events pending at once");
    if (pushes_ == kMaxPushes) throw Error("event queue: more than 2^40 events pushed in one run");
    std::uint32_t slot = 0;
    if (free_.empty()) {
      slot = static_cast<std::uint32_t>(slab_.size());
      slab_.push_back(std::move(payload));
    } else {
      slot = free_.back();
      free_.pop_back();
      slab_[slot] = std::move(payload);
    }
    if (keys_.size() < kPad + size_ + 1) keys_.resize(kPad + size_ + 1);
    sift_up(size_++, {at_s, pushes_++ << kSlotBits | slot});
  }

  /// Makes room for `n` pending events, so that a queue known to hold about `n` grows no more.
  void reserve(std::size_t n) {
    keys_.reserve(kPad + n);
    slab_.reserve(n);
    free_.reserve(n);
  }

  /// Removes the payload served next and returns it (the queue must not be empty).
  Payload pop() {
    const auto slot = slot_of(key(0));
    Payload out = std::move(slab_[slot]);
    free_.push_back(slot);
    const Key last = key(--size_);
    if (size_ > 0) {
      sift_down(last);
      // The next payload was pushed long ago in a large queue (a release a second ahead): ask for
      // its line now, so that top() finds it.
      __builtin_prefetch(&slab_[slot_of(key(0))]);
    }
    return out;
  }

  void clear() {
    keys_.assign(kPad, Key{});
    slab_.clear();
    free_.clear();
    size_ = 0;
  }

 private:
  static constexpr unsigned kSlotBits = 24;
  static constexpr std::size_t kArity = 4;
  /// Node i sits at keys_[i + kPad], so that node i's children, 4i + 1 .. 4i + 4, sit at
  /// keys_[4(i + 1) .. 4(i + 1) + 3]: one 64-byte line, keys_ starting on a line.
  static constexpr std::size_t kPad = kArity - 1;
  static constexpr std::size_t kLine = 64;
  struct Key {
    double at_s = 0.0;
    std::uint64_t order = 0;  ///< push count << kSlotBits | the payload's slot
    bool operator<(const Key& o) const { return at_s != o.at_s ? at_s < o.at_s : order < o.order; }
  };
  static_assert(kArity * sizeof(Key) == kLine);
  /// Allocates on line boundaries.
  template <class T>
  struct LineAllocator {
    using value_type = T;
    LineAllocator() = default;
    template <class U>
    LineAllocator(const LineAllocator<U>&) {}  // NOLINT: rebinding, as std::allocator
    T* allocate(std::size_t n) {
      return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{kLine}));
    }
    void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{kLine}); }
    bool operator==(const LineAllocator&) const { return true; }
  };
  static std::uint32_t slot_of(const Key& k) {
    return static_cast<std::uint32_t>(k.order & ((std::uint64_t{1} << kSlotBits) - 1));
  }
  Key& key(std::size_t i) { return keys_[i + kPad]; }
  const Key& key(std::size_t i) const { return keys_[i + kPad]; }

  void sift_up(std::size_t i, const Key& k) {
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(k < key(parent))) break;
      key(i) = key(parent);
      i = parent;
    }
    key(i) = k;
  }

  void sift_down(const Key& k) {
    const Key* base = keys_.data() + kPad;
    std::size_t i = 0;
    for (;;) {
      const std::size_t first = kArity * i + 1;
      if (first >= size_) break;
      const std::size_t end = first + kArity < size_ ? first + kArity : size_;
      std::size_t best = first;
      for (std::size_t c = first + 1; c < end; ++c)
        if (base[c] < base[best]) best = c;
      if (!(base[best] < k)) break;
      keys_[i + kPad] = base[best];
      i = best;
    }
    keys_[i + kPad] = k;
  }

  std::vector<Key, LineAllocator<Key>> keys_ = std::vector<Key, LineAllocator<Key>>(kPad);
  std::vector<Payload> slab_;
  std::vector<std::uint32_t> free_;
  std::size_t size_ = 0;
  std::uint64_t pushes_ = 0;
};

}  // namespace coinfer
