// How an epoch ends (epoch_tail.hpp): the steps and their sizes for keep, drop and merge, counted by
// hand, for one stream (the single-node trainer) and several (the workers of the distributed trainer).
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/functional/epoch_tail.hpp"

using namespace coinfer;
using Steps = std::vector<std::vector<std::size_t>>;

TEST_CASE("one stream of 10 samples in minibatches of 4 under keep, drop and merge") {
  // 10 = 4 + 4 + 2: keep ends on a step of 2, drop skips it, merge adds it to the second step (4 + 2).
  CHECK(epoch_steps({10}, {4}, EpochTail::Keep) == Steps{{4}, {4}, {2}});
  CHECK(epoch_steps({10}, {4}, EpochTail::Drop) == Steps{{4}, {4}});
  CHECK(epoch_steps({10}, {4}, EpochTail::Merge) == Steps{{4}, {6}});
}

TEST_CASE("a stream that fills its last minibatch ends the same under every tail") {
  // 12 = 3 x 4: no tail to keep, drop or merge.
  for (auto tail : {EpochTail::Keep, EpochTail::Drop, EpochTail::Merge})
    CHECK(epoch_steps({12}, {4}, tail) == Steps{{4}, {4}, {4}});
}

TEST_CASE("drop with fewer samples than one minibatch is refused: no step would run") {
  CHECK_THROWS_AS(epoch_steps({3}, {4}, EpochTail::Drop), InputError);
  CHECK_THROWS_WITH(
      epoch_steps({3}, {4}, EpochTail::Drop),
      Catch::Contains("tail") && Catch::Contains("3 training samples make no full minibatch of 4"));
  // keep and merge run one step of the 3; nothing to train is no step
  CHECK(epoch_steps({3}, {4}, EpochTail::Keep) == Steps{{3}});
  CHECK(epoch_steps({3}, {4}, EpochTail::Merge) == Steps{{3}});
  CHECK(epoch_steps({0}, {4}, EpochTail::Merge).empty());
}

TEST_CASE("three workers with shards of 11, 11, 10 and local minibatches 4, 4, 3") {
  // keep: the workers run ceil(11/4) = 3, 3 and ceil(10/3) = 4 steps; the epoch takes 4, the first two
  // workers sending 4, 4, 3 and nothing, the third 3, 3, 3, 1.
  CHECK(epoch_steps({11, 11, 10}, {4, 4, 3}, EpochTail::Keep) ==
        Steps{{4, 4, 3}, {4, 4, 3}, {3, 3, 3}, {0, 0, 1}});
  // drop: every worker has its full share in min(11/4, 11/4, 10/3) = min(2, 2, 3) = 2 steps of 11.
  CHECK(epoch_steps({11, 11, 10}, {4, 4, 3}, EpochTail::Drop) == Steps{{4, 4, 3}, {4, 4, 3}});
  // merge: the same 2 steps, the last taking the rests 11 - 8 = 3, 3 and 10 - 6 = 4: 7, 7, 7.
  CHECK(epoch_steps({11, 11, 10}, {4, 4, 3}, EpochTail::Merge) == Steps{{4, 4, 3}, {7, 7, 7}});
}

TEST_CASE("drop refuses a worker whose shard is smaller than its share, naming it") {
  CHECK_THROWS_WITH(epoch_steps({5, 2, 5}, {3, 3, 3}, EpochTail::Drop),
                    Catch::Contains("worker 1 has 2 training samples, fewer than its local minibatch of 3"));
}

TEST_CASE("cut_epoch takes each stream's samples front to back") {
  const auto batches = cut_epoch({{7, 8, 9, 10, 11}, {1, 2, 3}}, {2, 1}, EpochTail::Merge);
  // min(5/2, 3/1) = 2 full steps; the last takes the rests: stream 0 9, 10, 11, stream 1 2, 3
  using Cut = std::vector<std::vector<std::vector<std::size_t>>>;
  CHECK(batches == Cut{{{7, 8}, {1}}, {{9, 10, 11}, {2, 3}}});
}

TEST_CASE("epoch tail names parse, and an unknown one lists the known") {
  for (auto tail : {EpochTail::Keep, EpochTail::Drop, EpochTail::Merge})
    CHECK(parse_epoch_tail(epoch_tail_name(tail)) == tail);
  CHECK_THROWS_WITH(parse_epoch_tail("last"),
                    Catch::Contains("unknown epoch tail 'last'; known: keep, drop, merge"));
}
