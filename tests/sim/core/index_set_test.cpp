// IndexSet (sim/core/index_set.hpp): a set of small indices served lowest first, against std::set.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "sim/core/index_set.hpp"

using coinfer::IndexSet;

TEST_CASE("an index set serves its indices lowest first") {
  IndexSet s;
  CHECK(s.empty());
  CHECK(s.insert(130));
  CHECK(s.insert(3));
  CHECK(s.insert(64));
  CHECK_FALSE(s.insert(3));
  CHECK(s.size() == 3);
  CHECK(s.lowest() == 3);
  CHECK(s.erase(3));
  CHECK_FALSE(s.erase(3));
  CHECK(s.lowest() == 64);
  CHECK(s.erase(64));
  CHECK(s.lowest() == 130);
  CHECK(s.insert(0));
  CHECK(s.lowest() == 0);
  CHECK(s.contains(130));
  CHECK_FALSE(s.contains(1000));
  CHECK_FALSE(s.erase(1000));
}

TEST_CASE("an index set answers as std::set does over random inserts and erases") {
  std::mt19937_64 rng(25);
  std::uniform_int_distribution<std::size_t> index(0, 300);
  std::uniform_int_distribution<int> op(0, 2);
  IndexSet s;
  std::set<std::size_t> reference;
  for (int step = 0; step < 20000; ++step) {
    const std::size_t i = index(rng);
    switch (op(rng)) {
      case 0:
        CHECK(s.insert(i) == reference.insert(i).second);
        break;
      case 1:
        CHECK(s.erase(i) == (reference.erase(i) > 0));
        break;
      default:  // the event loop's use: handle the lowest
        if (!reference.empty()) {
          REQUIRE(s.lowest() == *reference.begin());
          CHECK(s.erase(*reference.begin()));
          reference.erase(reference.begin());
        }
        break;
    }
    REQUIRE(s.size() == reference.size());
    REQUIRE(s.empty() == reference.empty());
    if (!reference.empty()) REQUIRE(s.lowest() == *reference.begin());
  }
}
