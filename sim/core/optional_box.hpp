#pragma once
/// An optional value kept on the heap: 8 bytes when empty, where `std::optional<T>` takes
/// sizeof(T) + 8 whether set or not. For a rarely set member of a struct held many times (a
/// `Device`'s batching: a city's 10,000 phones have none). Copies copy the value; reads and
/// writes go through `->` and `*` as with std::optional.
///
///     OptionalBox<Batching> b;      // empty
///     b = Batching{8, 0.005, {}};   // set
///     if (b) b->max_batch = 4;
#include <memory>
#include <optional>
#include <utility>

namespace coinfer {

template <class T>
class OptionalBox {
 public:
  OptionalBox() = default;
  OptionalBox(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT: as std::optional
  OptionalBox(const OptionalBox& other) : value_(other ? std::make_unique<T>(*other) : nullptr) {}
  OptionalBox(OptionalBox&&) noexcept = default;
  OptionalBox& operator=(const OptionalBox& other) {
    if (this != &other) value_ = other ? std::make_unique<T>(*other) : nullptr;
    return *this;
  }
  OptionalBox& operator=(OptionalBox&&) noexcept = default;
  OptionalBox& operator=(T value) {
    value_ = std::make_unique<T>(std::move(value));
    return *this;
  }
  OptionalBox& operator=(std::optional<T> value) {
    value_ = value ? std::make_unique<T>(std::move(*value)) : nullptr;
    return *this;
  }

  explicit operator bool() const { return value_ != nullptr; }
  bool has_value() const { return value_ != nullptr; }
  void reset() { value_.reset(); }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace coinfer
