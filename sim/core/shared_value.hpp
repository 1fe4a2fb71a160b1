#pragma once
/// A value that copies share until one of them is changed (copy on write). Reading gives the
/// shared value; `edit()` first gives the copy being changed a value of its own when others
/// share it. Copies of one `Device` hold one calibration: ten thousand phones declared from one
/// template (`count` in a platform file) keep one `DeviceCalibration`, not ten thousand.
///
///     SharedValue<DeviceCalibration> a = load_calibration_file(path);
///     SharedValue<DeviceCalibration> b = a;   // one calibration, two holders
///     b.edit().batch_lanes = 8;               // b now has its own; a is unchanged
///     total_time_s(a);                        // reads as `const DeviceCalibration&`
///
/// Not synchronised: two threads may read copies at once, but one that edits must own its copy.
#include <memory>
#include <utility>

namespace coinfer {

template <class T>
class SharedValue {
 public:
  /// The default value, shared by every default-constructed holder.
  SharedValue() : value_(default_value()) {}
  SharedValue(T value) : value_(std::make_shared<T>(std::move(value))) {}  // NOLINT: implicit by design
  SharedValue& operator=(T value) {
    value_ = std::make_shared<T>(std::move(value));
    return *this;
  }

  operator const T&() const { return *value_; }  // NOLINT: reads as the value
  const T& operator*() const { return *value_; }
  const T* operator->() const { return value_.get(); }

  /// The value, for changing it: copied first when another holder shares it.
  T& edit() {
    if (value_.use_count() != 1) value_ = std::make_shared<T>(*value_);
    return *value_;
  }

  /// Whether both hold one value (not only equal ones).
  bool shares_with(const SharedValue& other) const { return value_ == other.value_; }

  friend bool operator==(const SharedValue& a, const SharedValue& b) {
    return a.value_ == b.value_ || *a.value_ == *b.value_;
  }

 private:
  static const std::shared_ptr<T>& default_value() {
    static const std::shared_ptr<T> value = std::make_shared<T>();
    return value;
  }

  std::shared_ptr<T> value_;
};

}  // namespace coinfer
