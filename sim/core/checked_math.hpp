#pragma once
/// Overflow-checked 64-bit integer arithmetic for sizes derived from user input (tensor shapes,
/// parameter and MAC counts, byte counts). A `CheckedInt` carries its value and whether any step
/// of the computation that produced it overflowed, so a formula reads as written and is tested once:
///
///     const CheckedInt out = (CheckedInt(in) + 2 * p - d * (k - 1) - 1) / s + 1;
///     if (!out.ok()) throw InputError(...);   // never signed-overflow UB
///     use(out.value());
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace coinfer {

/// `a + b`, or nullopt when it does not fit in int64.
inline std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

/// `a * b`, or nullopt when it does not fit in int64.
inline std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

/// The whole of `s` as a decimal int64, or nullopt for anything else (empty, a sign alone, trailing
/// characters, a value out of range): for sizes read from files, where std::stoll would throw.
inline std::optional<std::int64_t> parse_int64(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

class CheckedInt {
 public:
  constexpr CheckedInt(std::int64_t value = 0) : value_(value) {}  // NOLINT: implicit by design
  static constexpr CheckedInt overflow() {
    CheckedInt c;
    c.ok_ = false;
    return c;
  }

  /// False once any step overflowed (the value is then meaningless).
  constexpr bool ok() const { return ok_; }
  /// The value; only meaningful when `ok()`.
  constexpr std::int64_t value() const { return value_; }

  friend CheckedInt operator+(CheckedInt a, CheckedInt b) {
    std::int64_t r = 0;
    if (!a.ok_ || !b.ok_ || __builtin_add_overflow(a.value_, b.value_, &r)) return overflow();
    return r;
  }
  friend CheckedInt operator-(CheckedInt a, CheckedInt b) {
    std::int64_t r = 0;
    if (!a.ok_ || !b.ok_ || __builtin_sub_overflow(a.value_, b.value_, &r)) return overflow();
    return r;
  }
  friend CheckedInt operator*(CheckedInt a, CheckedInt b) {
    std::int64_t r = 0;
    if (!a.ok_ || !b.ok_ || __builtin_mul_overflow(a.value_, b.value_, &r)) return overflow();
    return r;
  }
  /// Truncating division, as C++'s; dividing by 0 or INT64_MIN / -1 counts as an overflow.
  friend CheckedInt operator/(CheckedInt a, CheckedInt b) {
    if (!a.ok_ || !b.ok_ || b.value_ == 0 || (a.value_ == INT64_MIN && b.value_ == -1)) return overflow();
    return a.value_ / b.value_;
  }
  CheckedInt& operator+=(CheckedInt b) { return *this = *this + b; }
  CheckedInt& operator*=(CheckedInt b) { return *this = *this * b; }

 private:
  std::int64_t value_ = 0;
  bool ok_ = true;
};

}  // namespace coinfer
