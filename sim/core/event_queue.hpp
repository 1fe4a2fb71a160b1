#pragma once
/// A discrete-event queue: payloads served by date, those of one date in the order they were
/// pushed. The same order as a `std::priority_queue` of (date, push count, payload), at a cost that
/// does not grow with the queue when the dates come in runs.
///
/// A simulation's events mostly come in runs of rising dates: a stream's next release a period
/// after the one just served, a transfer's end a fixed latency after its start. A key (the date, and
/// the push count and the payload's slot packed in one word, 16 bytes) joins the first of four
/// lanes whose last key is not later than it: a lane is a first-in first-out ring, sorted by
/// construction, so that its push and pop touch one line each and sift nothing. A key no lane can
/// take goes to a heap (four children to a node, each node's children in one 64-byte line). The
/// next event, kept aside, is the least of the lanes' heads and the heap's top. Keys pushed before
/// the first pop (a simulation's start: a release per user) wait unsorted in the first lane and
/// are sorted once, at that pop. The payloads wait in a slab until popped.
///
/// In bench/population_bench.cpp every release, private transfer's end and execution's end runs
/// through a lane: coinfer's instructions per frame at 10,000 users, 1.065 times those at 10 users
/// with the heap alone, became 1.008 times (bench/population_instructions.sh).
///
///     EventQueue<Timer> q;
///     q.push(2.0, a);
///     q.push(1.0, b);
///     q.push(1.0, c);
///     q.top_s();   // 1.0, q.top() is b; q.pop() returns b, then c, then a
///
/// Limits: 2^24 - 1 payloads pending at once and 2^40 pushes in all; past either, push throws.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
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
  double top_s() const { return head_.at_s; }
  /// The payload served next (the queue must not be empty).
  const Payload& top() const { return slab_[slot_of(head_)]; }

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
    const Key k{at_s, pushes_++ << kSlotBits | slot};
    if (staging_) {
      lanes_[0].push_back(k);
      if (size_++ == 0 || k < head_) head_ = k;
      return;
    }
    place(k, size_++ == 0);
  }

  /// Makes room for `n` pending events, so that a queue known to hold about `n` grows no more
  /// (address space only: memory is touched as events arrive).
  void reserve(std::size_t n) {
    lanes_[0].reserve(n);
    keys_.reserve(kPad + n);
    slab_.reserve(n);
    free_.reserve(n);
  }

  /// Removes the payload served next and returns it (the queue must not be empty).
  Payload pop() {
    if (staging_) settle();
    const auto slot = slot_of(head_);
    Payload out = std::move(slab_[slot]);
    free_.push_back(slot);
    take();
    // The next payload was pushed long ago in a large queue (a release a second ahead): ask for
    // its line now, so that top() finds it.
    if (size_ > 0) __builtin_prefetch(&slab_[slot_of(head_)]);
    return out;
  }

  void clear() {
    for (auto& lane : lanes_) lane.clear();
    keys_.assign(kPad, Key{});
    heap_size_ = 0;
    slab_.clear();
    free_.clear();
    size_ = 0;
    staging_ = true;
    best_ = kHeap;
  }

 private:
  static constexpr unsigned kSlotBits = 24;
  static constexpr std::size_t kLanes = 4;
  static constexpr std::size_t kHeap = kLanes;  ///< `best_` when the heap's top is served next
  static constexpr std::size_t kArity = 4;
  /// Node i sits at keys_[i + kPad], so that node i's children, 4i + 1 .. 4i + 4, sit at
  /// keys_[4(i + 1) .. 4(i + 1) + 3]: one 64-byte line, keys_ starting on a line.
  static constexpr std::size_t kPad = kArity - 1;
  static constexpr std::size_t kLine = 64;
  struct Key {  // no member initialisers: a ring's storage is left untouched until used
    double at_s;
    std::uint64_t order;  ///< push count << kSlotBits | the payload's slot
    bool operator<(const Key& o) const { return at_s != o.at_s ? at_s < o.at_s : order < o.order; }
  };
  static_assert(kArity * sizeof(Key) == kLine);
  /// A lane: keys in the order pushed, which is their sorted order (or, while staging, not yet).
  class Ring {
   public:
    bool empty() const { return count_ == 0; }
    const Key& front() const { return ring_[head_]; }
    /// Whether a key of date `at_s`, pushed now, keeps the lane sorted (a key pushed later has a
    /// greater push count, so a date not earlier than the last key's does).
    bool takes(double at_s) const { return at_s >= last_s_; }
    void push_back(const Key& k) {
      if (count_ == capacity_) grow(std::max<std::size_t>(8, 2 * capacity_));
      ring_[wrap(head_ + count_)] = k;
      ++count_;
      last_s_ = k.at_s;
    }
    void pop_front() {
      head_ = wrap(head_ + 1);
      if (--count_ == 0) last_s_ = -std::numeric_limits<double>::infinity();
    }
    void reserve(std::size_t n) {
      if (n > capacity_) grow(n);
    }
    /// Sorts the keys pushed so far: the staging lane, from which nothing was popped, so that
    /// they sit at the start.
    void sort() {
      std::sort(ring_.get() + head_, ring_.get() + head_ + count_);
      if (count_ > 0) last_s_ = ring_[head_ + count_ - 1].at_s;
    }
    void clear() {
      head_ = count_ = 0;
      last_s_ = -std::numeric_limits<double>::infinity();
    }

   private:
    std::size_t wrap(std::size_t i) const { return i >= capacity_ ? i - capacity_ : i; }
    void grow(std::size_t capacity) {
      std::unique_ptr<Key[]> ring(new Key[capacity]);  // default-initialised: untouched pages
      for (std::size_t i = 0; i < count_; ++i) ring[i] = ring_[wrap(head_ + i)];
      ring_ = std::move(ring);
      capacity_ = capacity;
      head_ = 0;
    }
    std::unique_ptr<Key[]> ring_;
    std::size_t capacity_ = 0;
    std::size_t head_ = 0;
    std::size_t count_ = 0;
    double last_s_ = -std::numeric_limits<double>::infinity();  ///< the last key's date
  };
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
  /// Ends the staging: sorts the keys pushed before the first pop (head_ is already their least).
  void settle() {
    lanes_[0].sort();
    staging_ = false;
    best_ = 0;
  }

  /// Puts `k`, just pushed, in the first lane that keeps its order, or else in the heap.
  void place(const Key& k, bool was_empty) {
    std::size_t to = kHeap;
    for (std::size_t i = 0; i < kLanes; ++i) {
      if (lanes_[i].takes(k.at_s)) {
        lanes_[i].push_back(k);
        to = i;
        break;
      }
    }
    if (to == kHeap) heap_push(k);
    // Earlier than the key served next, `k` is the head of its lane or the heap's top.
    if (was_empty || k < head_) {
      head_ = k;
      best_ = to;
    }
  }

  /// Removes the key served next and finds the one after it: the least of the heap's top and the
  /// lanes' heads.
  void take() {
    if (best_ == kHeap) {
      heap_pop();
    } else {
      lanes_[best_].pop_front();
    }
    if (--size_ == 0) return;
    bool found = heap_size_ > 0;
    if (found) head_ = key(0);
    best_ = kHeap;
    for (std::size_t i = 0; i < kLanes; ++i) {
      if (!lanes_[i].empty() && (!found || lanes_[i].front() < head_)) {
        head_ = lanes_[i].front();
        best_ = i;
        found = true;
      }
    }
  }

  void heap_push(const Key& k) {
    if (keys_.size() < kPad + heap_size_ + 1) keys_.resize(kPad + heap_size_ + 1);
    std::size_t i = heap_size_++;
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(k < key(parent))) break;
      key(i) = key(parent);
      i = parent;
    }
    key(i) = k;
  }

  void heap_pop() {
    const Key k = key(--heap_size_);
    if (heap_size_ == 0) return;
    const Key* base = keys_.data() + kPad;
    std::size_t i = 0;
    for (;;) {
      const std::size_t first = kArity * i + 1;
      if (first >= heap_size_) break;
      const std::size_t end = first + kArity < heap_size_ ? first + kArity : heap_size_;
      std::size_t best = first;
      for (std::size_t c = first + 1; c < end; ++c)
        if (base[c] < base[best]) best = c;
      if (!(base[best] < k)) break;
      keys_[i + kPad] = base[best];
      i = best;
    }
    keys_[i + kPad] = k;
  }

  std::array<Ring, kLanes> lanes_;
  /// Nothing popped since the start (or clear()): pushes go unsorted to the first lane.
  bool staging_ = true;
  Key head_{0.0, 0};          ///< the key served next (the queue not empty)
  std::size_t best_ = kHeap;  ///< where head_ is: a lane, or the heap (kHeap)
  std::vector<Key, LineAllocator<Key>> keys_ = std::vector<Key, LineAllocator<Key>>(kPad, Key{});
  std::size_t heap_size_ = 0;
  std::vector<Payload> slab_;
  std::vector<std::uint32_t> free_;
  std::size_t size_ = 0;
  std::uint64_t pushes_ = 0;
};

}  // namespace coinfer
