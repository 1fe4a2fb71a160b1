// Overflow-checked integer arithmetic: every step that leaves int64 marks the result, and the mark
// survives the rest of the formula.
#include <catch2/catch.hpp>

#include "sim/core/checked_math.hpp"

using namespace coinfer;

TEST_CASE("checked arithmetic computes exactly inside int64") {
  // (1000 + 2*1 - 1*(3-1) - 1) / 1 + 1 = 1000: the conv output-size formula
  const CheckedInt out =
      (CheckedInt(1000) + CheckedInt(2) * 1 - CheckedInt(1) * (CheckedInt(3) - 1) - 1) / 1 + 1;
  REQUIRE(out.ok());
  CHECK(out.value() == 1000);
  CHECK(checked_add(INT64_MAX - 1, 1) == INT64_MAX);
  CHECK(checked_mul(std::int64_t{1} << 31, std::int64_t{1} << 31) == std::int64_t{1} << 62);
}

TEST_CASE("a product beyond 2^63 - 1 is an overflow, not a wrapped negative number") {
  // 2^32 * 2^32 = 2^64 does not fit; the wrapped value would be 0
  CHECK_FALSE((CheckedInt(std::int64_t{1} << 32) * (std::int64_t{1} << 32)).ok());
  CHECK_FALSE(checked_mul(std::int64_t{1} << 32, std::int64_t{1} << 32).has_value());
  CHECK_FALSE(checked_add(INT64_MAX, 1).has_value());
}

TEST_CASE("an overflow anywhere in a formula poisons its result") {
  const CheckedInt big = CheckedInt(INT64_MAX) + 1;  // overflows
  CHECK_FALSE((big - 5).ok());
  CHECK_FALSE((big / 2).ok());
  CHECK_FALSE((CheckedInt(0) * big).ok());  // 0 * (overflowed) is still unknown
}

TEST_CASE("division by zero and INT64_MIN / -1 count as overflows") {
  CHECK_FALSE((CheckedInt(7) / 0).ok());
  CHECK_FALSE((CheckedInt(INT64_MIN) / -1).ok());
  CHECK((CheckedInt(-7) / 2).value() == -3);  // truncating, as C++
}
