// EventQueue (sim/core/event_queue.hpp): payloads by date, then in push order, against a
// std::priority_queue of (date, push count, payload).
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/event_queue.hpp"

using coinfer::EventQueue;

TEST_CASE("an event queue serves by date, and one date's events in the order pushed") {
  EventQueue<std::string> q;
  CHECK(q.empty());
  q.push(2.0, "a");
  q.push(1.0, "b");
  q.push(1.0, "c");
  q.push(0.5, "d");
  REQUIRE(q.size() == 4);
  CHECK(q.top_s() == 0.5);
  CHECK(q.top() == "d");
  std::vector<std::string> order;
  while (!q.empty()) order.push_back(q.pop());
  CHECK(order == std::vector<std::string>{"d", "b", "c", "a"});
}

TEST_CASE("an event queue pops what a binary heap of (date, push count) pops, under random pushes and pops") {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> date(0, 40);  // few dates: many ties
  std::uniform_int_distribution<int> act(0, 2);
  using Entry = std::tuple<double, std::uint64_t, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> reference;
  EventQueue<int> q;
  std::uint64_t pushes = 0;
  for (int step = 0; step < 200000; ++step) {
    if (reference.empty() || act(rng) != 0) {
      const double at = date(rng) + static_cast<double>(step / 1000);
      reference.emplace(at, pushes, step);
      q.push(at, step);
      ++pushes;
    } else {
      REQUIRE(q.top_s() == std::get<0>(reference.top()));
      REQUIRE(q.pop() == std::get<2>(reference.top()));
      reference.pop();
    }
    REQUIRE(q.size() == reference.size());
  }
  while (!reference.empty()) {
    REQUIRE(q.pop() == std::get<2>(reference.top()));
    reference.pop();
  }
  CHECK(q.empty());
}

TEST_CASE("an emptied event queue starts over") {
  EventQueue<int> q;
  for (int i = 0; i < 100; ++i) q.push(100.0 - i, i);
  q.clear();
  CHECK(q.empty());
  q.push(3.0, 1);
  q.push(2.0, 2);
  CHECK(q.pop() == 2);
  CHECK(q.pop() == 1);
}
