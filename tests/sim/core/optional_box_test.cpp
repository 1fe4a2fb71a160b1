// OptionalBox (sim/core/optional_box.hpp): an optional on the heap, copied by value.
#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "sim/core/optional_box.hpp"

using coinfer::OptionalBox;

TEST_CASE("an optional box is empty until set, and costs a pointer") {
  OptionalBox<std::vector<int>> b;
  CHECK_FALSE(b);
  CHECK_FALSE(b.has_value());
  b = std::vector<int>{1, 2};
  REQUIRE(b);
  CHECK(b->size() == 2);
  b = std::optional<std::vector<int>>();
  CHECK_FALSE(b);
  b = std::optional<std::vector<int>>(std::vector<int>{3});
  CHECK((*b)[0] == 3);
  b.reset();
  CHECK_FALSE(b);
  STATIC_REQUIRE(sizeof(OptionalBox<std::vector<int>>) == sizeof(void*));
}

TEST_CASE("a copied optional box holds a value of its own") {
  OptionalBox<std::vector<int>> a = std::vector<int>{1};
  OptionalBox<std::vector<int>> b = a;
  b->push_back(2);
  CHECK(a->size() == 1);
  CHECK(b->size() == 2);
  a = b;
  CHECK(a->size() == 2);
  a->push_back(3);
  CHECK(b->size() == 2);
  const OptionalBox<std::vector<int>> empty;
  a = empty;
  CHECK_FALSE(a);
}
