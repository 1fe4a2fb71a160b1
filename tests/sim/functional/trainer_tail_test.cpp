// The epoch tail (TrainOptions::tail) in the trainers: the steps of an epoch on the real digits per
// mode, keep bit-identical to the epoch as it ran before the option, drop's left-out samples coming
// back in later epochs, and the distributed trainer cutting every worker's shard the same way.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "sim/core/error.hpp"
#include "sim/functional/distributed_trainer.hpp"
#include "sim/models/zoo.hpp"
#include "tests/sim/functional/digits_fixture.hpp"

using namespace coinfer;

namespace {

using test::digits;

// The first `n` sample indices: a small training set.
std::vector<std::size_t> first(std::size_t n) {
  std::vector<std::size_t> out(n);
  for (std::size_t k = 0; k < n; ++k) out[k] = k;
  return out;
}

TrainOptions with_tail(EpochTail tail, std::int64_t batch) {
  TrainOptions o;
  o.batch = batch;
  o.tail = tail;
  return o;
}

std::vector<std::size_t> sizes(const std::vector<std::vector<std::size_t>>& batches) {
  std::vector<std::size_t> out;
  for (const auto& b : batches) out.push_back(b.size());
  return out;
}

// One SGD step of `t` on the samples `indices` of the digits.
double step_on(Trainer& t, const std::vector<std::size_t>& indices) {
  std::vector<const Tensor*> samples;
  std::vector<std::int64_t> labels;
  for (std::size_t k : indices) {
    samples.push_back(&digits().samples[k]);
    labels.push_back(digits().labels[k]);
  }
  return t.train_step(samples, labels);
}

bool same_weights(const ForwardPass& a, const ForwardPass& b) {
  for (std::size_t i = 0; i < a.graph().size(); ++i)
    if (a.weights(i).weight != b.weights(i).weight || a.weights(i).bias != b.weights(i).bias) return false;
  return true;
}

}  // namespace

TEST_CASE("an epoch of 110 samples in minibatches of 25 per tail") {
  // 110 = 4 x 25 + 10: keep ends on a step of 10, drop skips it, merge makes the fourth step 35.
  const auto train = first(110);
  const auto steps = [&](EpochTail tail) {
    return sizes(Trainer(build_zoo_model("digits_mlp"), 1, with_tail(tail, 25)).epoch_batches(train, 1));
  };
  CHECK(steps(EpochTail::Keep) == std::vector<std::size_t>{25, 25, 25, 25, 10});
  CHECK(steps(EpochTail::Drop) == std::vector<std::size_t>{25, 25, 25, 25});
  CHECK(steps(EpochTail::Merge) == std::vector<std::size_t>{25, 25, 25, 35});
}

TEST_CASE("keep trains bit-identically to the epoch before the tail option") {
  // Before: the indices shuffled from (seed, "epoch<e>"), cut into steps of `batch`, the last holding
  // what is left (110 = 4 x 25 + 10), the loss the mean over all 110 samples.
  const auto train = first(110);
  Trainer t(build_zoo_model("digits_mlp"), 4, with_tail(EpochTail::Keep, 25));
  Trainer reference(build_zoo_model("digits_mlp"), 4, with_tail(EpochTail::Keep, 25));
  for (std::int64_t epoch = 1; epoch <= 2; ++epoch) {
    const double loss = t.train_epoch(digits(), train, epoch);
    auto order = train;
    shuffle_indices(order, derive_seed(4, "epoch" + std::to_string(epoch)));
    double sum = 0.0;
    for (std::size_t first_k = 0; first_k < order.size(); first_k += 25) {
      const std::vector<std::size_t> step(
          order.begin() + static_cast<std::ptrdiff_t>(first_k),
          order.begin() + static_cast<std::ptrdiff_t>(std::min(first_k + 25, order.size())));
      sum += step_on(reference, step) * static_cast<double>(step.size());
    }
    CHECK(loss == sum / 110.0);
  }
  CHECK(same_weights(t.model(), reference.model()));
}

TEST_CASE("train_epoch runs the steps of epoch_batches under drop and merge") {
  const auto train = first(110);
  const EpochTail tail = GENERATE(EpochTail::Drop, EpochTail::Merge);
  INFO(epoch_tail_name(tail));
  Trainer t(build_zoo_model("digits_mlp"), 2, with_tail(tail, 25));
  Trainer reference(build_zoo_model("digits_mlp"), 2, with_tail(tail, 25));
  const double loss = t.train_epoch(digits(), train, 1);
  double sum = 0.0;
  std::size_t trained = 0;
  for (const auto& step : reference.epoch_batches(train, 1)) {
    sum += step_on(reference, step) * static_cast<double>(step.size());
    trained += step.size();
  }
  CHECK(trained == (tail == EpochTail::Drop ? 100u : 110u));
  CHECK(loss == sum / static_cast<double>(trained));  // the mean over the samples trained on
  CHECK(same_weights(t.model(), reference.model()));
}

TEST_CASE("drop leaves different samples out each epoch, so every sample is trained on") {
  // 110 samples, steps of 25: 10 left out per epoch, drawn anew by each epoch's shuffle.
  const auto train = first(110);
  const Trainer t(build_zoo_model("digits_mlp"), 3, with_tail(EpochTail::Drop, 25));
  std::set<std::size_t> seen;
  std::vector<std::set<std::size_t>> left_out;
  for (std::int64_t epoch = 1; epoch <= 6; ++epoch) {
    std::set<std::size_t> epoch_seen;
    for (const auto& step : t.epoch_batches(train, epoch)) epoch_seen.insert(step.begin(), step.end());
    CHECK(epoch_seen.size() == 100);
    seen.insert(epoch_seen.begin(), epoch_seen.end());
    std::set<std::size_t> out;
    for (std::size_t k : train)
      if (!epoch_seen.count(k)) out.insert(k);
    left_out.push_back(out);
  }
  CHECK(left_out[0] != left_out[1]);
  CHECK(seen.size() == 110);
}

TEST_CASE("drop on fewer training samples than one minibatch is refused under tail") {
  const Trainer t(build_zoo_model("digits_mlp"), 1, with_tail(EpochTail::Drop, 32));
  CHECK_THROWS_AS(t.epoch_batches(first(20), 1), InputError);
  CHECK_THROWS_WITH(t.epoch_batches(first(20), 1),
                    Catch::Contains("20 training samples make no full minibatch of 32"));
}

TEST_CASE("the distributed trainer cuts every worker's shard by the tail") {
  // 100 samples dealt round robin to 3 workers: shards of 34, 33, 33; total minibatch 11, local 4, 4, 3.
  // keep: max(ceil(34/4), ceil(33/4), ceil(33/3)) = max(9, 9, 11) = 11 steps, the third worker alone in
  // the last two. drop: min(34/4, 33/4, 33/3) = min(8, 8, 11) = 8 steps of 11 (12 samples wait).
  // merge: the same 8, the last taking the rests 34 - 32 = 2, 33 - 32 = 1, 33 - 24 = 9: 6 + 5 + 12 = 23.
  const auto train = first(100);
  const auto plan = [&](EpochTail tail) {
    const DistributedTrainer t(build_zoo_model("digits_mlp"), 1,
                               {3, GradientCodec::Fp32, with_tail(tail, 11)});
    std::vector<std::vector<std::size_t>> out;  // [step][worker] sample counts
    for (const auto& step : t.epoch_batches(train, 1)) out.push_back(sizes(step));
    return out;
  };
  using Counts = std::vector<std::vector<std::size_t>>;
  const auto keep = plan(EpochTail::Keep), drop = plan(EpochTail::Drop), merge = plan(EpochTail::Merge);
  REQUIRE(keep.size() == 11);
  CHECK(keep[7] == std::vector<std::size_t>{4, 4, 3});
  CHECK(keep[8] == std::vector<std::size_t>{2, 1, 3});
  CHECK(keep[10] == std::vector<std::size_t>{0, 0, 3});
  CHECK(drop == Counts(8, {4, 4, 3}));
  REQUIRE(merge.size() == 8);
  CHECK(merge[6] == std::vector<std::size_t>{4, 4, 3});
  CHECK(merge[7] == std::vector<std::size_t>{6, 5, 12});
}

TEST_CASE("the distributed trainer's epoch runs its planned steps under drop") {
  // train_epoch against train_step on the steps epoch_batches plans: same loss, same weights.
  const auto train = first(100);
  const DistributedOptions o{3, GradientCodec::OneBit, with_tail(EpochTail::Drop, 11)};
  DistributedTrainer t(build_zoo_model("digits_mlp"), 5, o), reference(build_zoo_model("digits_mlp"), 5, o);
  const double loss = t.train_epoch(digits(), train, 1);
  double sum = 0.0;
  for (const auto& step : reference.epoch_batches(train, 1)) {
    std::vector<std::vector<const Tensor*>> batches(step.size());
    std::vector<std::vector<std::int64_t>> labels(step.size());
    for (std::size_t w = 0; w < step.size(); ++w)
      for (std::size_t k : step[w]) {
        batches[w].push_back(&digits().samples[k]);
        labels[w].push_back(digits().labels[k]);
      }
    sum += reference.train_step(batches, labels) * 11.0;  // every step holds 11 samples
  }
  CHECK(loss == sum / 88.0);  // 8 steps of 11
  CHECK(same_weights(t.trainer().model(), reference.trainer().model()));
}

TEST_CASE("distributed drop with a shard smaller than its worker's share is refused under tail") {
  // 7 samples over 3 workers: shards 3, 2, 2 against local minibatches 4, 4, 4 (total 12).
  const DistributedTrainer t(build_zoo_model("digits_mlp"), 1,
                             {3, GradientCodec::Fp32, with_tail(EpochTail::Drop, 12)});
  CHECK_THROWS_WITH(t.epoch_batches(first(7), 1),
                    Catch::Contains("worker 0 has 3 training samples, fewer than its local minibatch of 4"));
}
