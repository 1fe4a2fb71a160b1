// SharedValue: copies share one value until one of them is edited.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/core/shared_value.hpp"

using namespace coinfer;

TEST_CASE("shared value: copies hold one value until one is edited, and the others keep it") {
  SharedValue<std::vector<int>> a = std::vector<int>{1, 2, 3};
  const SharedValue<std::vector<int>> b = a;
  CHECK(a.shares_with(b));
  CHECK(&*a == &*b);
  a.edit().push_back(4);
  CHECK_FALSE(a.shares_with(b));
  CHECK(*a == std::vector<int>{1, 2, 3, 4});
  CHECK(*b == std::vector<int>{1, 2, 3});
}

TEST_CASE("shared value: a sole holder edits its value in place") {
  SharedValue<std::string> a = std::string("nexus5");
  const std::string* before = &*a;
  a.edit() += "x";
  CHECK(&*a == before);
  CHECK(*a == "nexus5x");
}

TEST_CASE("shared value: default holders share the default, and editing one leaves it for the rest") {
  SharedValue<std::string> a, b;
  CHECK(a.shares_with(b));
  a.edit() = "changed";
  CHECK(*b == "");
  CHECK(*SharedValue<std::string>() == "");
}

TEST_CASE("shared value: holders compare by value, shared or not") {
  const SharedValue<std::string> a = std::string("tx2");
  const SharedValue<std::string> b = std::string("tx2");
  CHECK_FALSE(a.shares_with(b));
  CHECK(a == b);
  CHECK_FALSE(a == SharedValue<std::string>(std::string("k40")));
  const std::string& read = a;  // reads as the value
  CHECK(read == "tx2");
}
