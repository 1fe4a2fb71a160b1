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

namespace {

using Entry = std::tuple<double, std::uint64_t, int>;
using Reference = std::priority_queue<Entry, std::vector<Entry>, std::greater<>>;

/// Pops one event from both queues and requires the same date and payload.
void pop_both(EventQueue<int>& q, Reference& reference) {
  REQUIRE(q.top_s() == std::get<0>(reference.top()));
  REQUIRE(q.top() == std::get<2>(reference.top()));
  REQUIRE(q.pop() == std::get<2>(reference.top()));
  reference.pop();
}

}  // namespace

TEST_CASE("an event queue pops what a binary heap pops when its events come in runs of rising dates") {
  // Six periodic streams (more than the queue's lanes), their dates on a coarse grid so that
  // streams tie, and every so often an event at a random date: as a population's releases and
  // transfer ends come.
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> stream_of(0, 5);
  std::uniform_int_distribution<int> jitter(0, 30);
  std::uniform_int_distribution<int> act(0, 9);
  Reference reference;
  EventQueue<int> q;
  std::vector<double> next{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  const std::vector<double> period{1.0, 1.0, 2.0, 3.0, 0.5, 4.0};
  std::uint64_t pushes = 0;
  double now = 0.0;
  for (int step = 0; step < 200000; ++step) {
    if (reference.empty() || act(rng) < 5) {
      const int s = stream_of(rng);
      double at = 0.0;
      if (act(rng) == 0) {
        at = now + jitter(rng) * 0.25;  // out of every run
      } else {
        next[s] = std::max(next[s], now) + period[s];
        at = next[s];
      }
      reference.emplace(at, pushes++, step);
      q.push(at, step);
    } else {
      now = std::get<0>(reference.top());
      pop_both(q, reference);
    }
    REQUIRE(q.size() == reference.size());
  }
  while (!reference.empty()) pop_both(q, reference);
  CHECK(q.empty());
}

TEST_CASE(
    "an event queue serves the events pushed before its first pop in order, and those pushed after among "
    "them") {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int> date(0, 500);
  Reference reference;
  EventQueue<int> q;
  std::uint64_t pushes = 0;
  for (int i = 0; i < 10000; ++i) {  // a release per user, at random phases: unsorted
    const double at = date(rng) * 0.01;
    reference.emplace(at, pushes++, i);
    q.push(at, i);
  }
  CHECK(q.top_s() == std::get<0>(reference.top()));  // read before the first pop
  CHECK(q.top() == std::get<2>(reference.top()));
  for (int i = 0; i < 30000; ++i) {  // each served release pushes the next, a period later
    const double now = std::get<0>(reference.top());
    pop_both(q, reference);
    const double at = now + 5.0 + (i % 7 == 0 ? date(rng) * 0.01 : 0.0);
    reference.emplace(at, pushes++, 10000 + i);
    q.push(at, 10000 + i);
  }
  while (!reference.empty()) pop_both(q, reference);
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
