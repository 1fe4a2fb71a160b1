// Bounded cbo-online: leaving out the frames that can no longer be
// offloaded on time must not change a single decision of Algorithm 1. Why it holds (label_dp.hpp):
// an expired frame offers no on-time upload from any label (every label has t >= uplink_free_at,
// and an upload ends no earlier when the uplink frees later), so it only copies each label (t, A)
// to (max(t, clamp), A + 0); the clamp is the earliest arrival of the live frames still to come,
// which the previous step's clamp already covered, so the copy is the identical front. The tests
// check exactly that (every front after a live frame, label for label, in both runs), then the
// decisions on many seeded instances, half of them on a 1/8 grid where equal values and times
// force the tie-breaking, then against exhaustive search, and finally the stateful OnlineWindow
// against Algorithm 1 over the whole history of a stream. Last, the labels dropped by the gain bound
// (gain_bound.hpp): the bound against exhaustive search, then the decisions with and without it.
#include <algorithm>
#include <limits>
#include <random>

#include <catch2/catch.hpp>

#include "schedulers/cbo/cbo_online.hpp"
#include "schedulers/cbo/cbo_online_window.hpp"
#include "schedulers/cbo/gain_bound.hpp"
#include "schedulers/cbo/label_dp.hpp"
#include "tests/schedulers/cbo/cbo_test_support.hpp"

namespace cbo = coinfer::cbo;
namespace detail = coinfer::cbo::detail;

namespace {

/// A stream of `n` frames `gap_s` apart, frames seen by the solver at a random later time: the
/// uplink is free from somewhere between the first and a little after the last arrival, so many
/// frames have expired. With `grid`, every number is a multiple of 1/8 (ties in time and value).
cbo::Problem random_stream(std::mt19937_64& rng, std::size_t n, bool grid) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto eighths = [&](int hi) {
    return static_cast<double>(std::uniform_int_distribution<int>(0, hi)(rng)) / 8;
  };
  auto prob = [&] { return grid ? eighths(8) : unit(rng); };
  cbo::Problem p;
  const std::size_t resolutions = 1 + rng() % 3;
  for (std::size_t r = 0; r < resolutions; ++r) p.server_accuracy.push_back(prob());
  p.bandwidth_bps = grid ? 8 : 4 + 12 * unit(rng);
  p.server_time_s = grid ? eighths(1) : 0.1 * unit(rng);
  p.latency_s = grid ? eighths(1) : 0.05 * unit(rng);
  p.deadline_s = grid ? 0.25 + eighths(6) : 0.2 + 0.8 * unit(rng);
  const double gap_s = grid ? 0.125 : 0.02 + 0.1 * unit(rng);
  for (std::size_t i = 0; i < n; ++i) {
    cbo::Frame f;
    f.arrival_s = gap_s * static_cast<double>(i);
    f.confidence = prob();
    f.local_accuracy = prob();
    for (std::size_t r = 0; r < resolutions; ++r) f.sizes_bits.push_back(grid ? eighths(8) : 2.0 * unit(rng));
    p.frames.push_back(f);
  }
  const double last_s = p.frames.back().arrival_s;
  p.uplink_free_at_s = grid ? eighths(8) * (last_s + 0.5) : unit(rng) * (last_s + 0.3);
  if (rng() % 4 == 0) p.frames = cbo::testing::shuffled(p, rng).frames;  // any arrival order
  return p;
}

/// Number of frames that cannot be offloaded on time at any resolution.
std::size_t expired(const cbo::Problem& p) {
  std::vector<std::size_t> all(p.resolutions());
  for (std::size_t r = 0; r < all.size(); ++r) all[r] = r;
  std::size_t n = 0;
  for (const auto& f : p.frames) n += detail::can_offload(p, f, all, p.uplink_free_at_s) ? 0 : 1;
  return n;
}

void check_same_solution(const cbo::OnlineSolution& bounded, const cbo::OnlineSolution& all) {
  CHECK(bounded.offload == all.offload);
  CHECK(bounded.offload_resolutions == all.offload_resolutions);
  CHECK(bounded.threshold == all.threshold);
  CHECK(bounded.resolution == all.resolution);
  CHECK(bounded.improvement == all.improvement);  // the same sums in the same order: bit for bit
}

}  // namespace

TEST_CASE("cbo-online bounded: every front after a live frame equals the unbounded one, label for label",
          "[cbo]") {
  std::mt19937_64 rng(0xB0D1);
  std::size_t skipped = 0;
  for (int instance = 0; instance < 1500; ++instance) {
    const auto p = random_stream(rng, 1 + rng() % 40, instance % 2 == 0);
    std::vector<std::size_t> resolutions;
    if (instance % 3 == 0) resolutions = {rng() % p.resolutions()};  // as the uniform policy runs it
    const auto order = cbo::confidence_order(p);
    detail::LabelDpOptions options;
    options.value = detail::LabelValue::kGain;
    options.resolutions = resolutions;
    const auto all = detail::run_label_dp(p, order, options);
    options.skip_dead_frames = true;
    const auto bounded = detail::run_label_dp(p, order, options);
    INFO("instance " << instance);
    REQUIRE(all.processed == order);
    skipped += order.size() - bounded.processed.size();
    std::size_t j = 0;  // position in the unbounded run
    for (std::size_t b = 0; b < bounded.processed.size(); ++b) {
      while (all.processed[j] != bounded.processed[b]) ++j;  // the expired frames in between
      const auto& x = bounded.fronts[b + 1];
      const auto& y = all.fronts[j + 1];
      REQUIRE(x.size() == y.size());
      for (std::size_t k = 0; k < x.size(); ++k) {
        CHECK(x[k].t_s == y[k].t_s);
        CHECK(x[k].value == y[k].value);
        CHECK(x[k].decision == y[k].decision);
        CHECK(x[k].parent == y[k].parent);
      }
    }
    CHECK(bounded.decisions == all.decisions);
    CHECK(bounded.best_value == all.best_value);
  }
  CHECK(skipped > 10000);  // the instances do expire frames
}

TEST_CASE("cbo-online bounded: the same decisions as Algorithm 1 over every frame (seeded instances)",
          "[cbo]") {
  std::mt19937_64 rng(0xC0FFEE);
  std::size_t offloads = 0, expired_frames = 0;
  for (int instance = 0; instance < 3000; ++instance) {
    const bool grid = instance % 2 == 0;
    // Small instances of the existing suite (few expired frames) and long streams (most expired).
    const auto p = instance % 3 == 0 ? cbo::testing::random_problem(rng, 12, 3)
                                     : random_stream(rng, 1 + rng() % 300, grid);
    expired_frames += expired(p);
    INFO("instance " << instance);
    for (const auto policy : {cbo::ResolutionPolicy::kPerFrame, cbo::ResolutionPolicy::kUniform}) {
      const auto bounded = cbo::solve_online(p, policy, cbo::FrameWindow::kDeadline);
      const auto all = cbo::solve_online(p, policy, cbo::FrameWindow::kAll);
      check_same_solution(bounded, all);
      offloads += bounded.offload.size();
    }
  }
  CHECK(offloads > 3000);
  CHECK(expired_frames > 100000);
}

TEST_CASE("cbo-online bounded: equals exhaustive search when most frames have expired", "[cbo]") {
  std::mt19937_64 rng(0xE4A);
  int offloading = 0;
  for (int instance = 0; instance < 400; ++instance) {
    const auto p = random_stream(rng, 1 + rng() % 8, instance % 2 == 0);
    INFO("instance " << instance);
    const auto s = cbo::solve_online(p);
    CHECK(s.improvement == Approx(cbo::testing::exhaustive_best_gain(p)).margin(1e-12));
    std::vector<int> d(p.frames.size(), cbo::kLocal);
    for (std::size_t k = 0; k < s.offload.size(); ++k) d[s.offload[k]] = s.offload_resolutions[k];
    CHECK(cbo::testing::feasible(p, d, cbo::testing::by_descending_confidence(p)));
    offloading += s.offload.empty() ? 0 : 1;
  }
  CHECK(offloading > 50);
}

TEST_CASE("cbo OnlineWindow: a stream solved call by call equals Algorithm 1 over its whole history",
          "[cbo]") {
  // The paper's runtime: each frame is classified locally, added, and the algorithm re-run; the
  // frame it would offload first is offloaded (erased). The reference gets every frame added and
  // not erased so far, expired ones included, and runs over all of them.
  std::mt19937_64 rng(0x5713);
  for (int stream = 0; stream < 40; ++stream) {
    const bool grid = stream % 2 == 0;
    auto history = random_stream(rng, 300, grid);
    std::sort(history.frames.begin(), history.frames.end(),
              [](const cbo::Frame& a, const cbo::Frame& b) { return a.arrival_s < b.arrival_s; });
    cbo::OnlineWindow window(history);
    cbo::Problem reference = history;
    reference.frames.clear();
    std::vector<std::size_t> reference_index;  // stream index of reference.frames[k]
    double busy_until_s = 0;
    std::size_t largest = 0;
    const auto policy = stream % 4 < 2 ? cbo::ResolutionPolicy::kPerFrame : cbo::ResolutionPolicy::kUniform;
    for (const auto& frame : history.frames) {
      const auto id = window.add(frame);
      reference.frames.push_back(frame);
      reference_index.push_back(id);
      reference.uplink_free_at_s = std::max(frame.arrival_s, busy_until_s);
      const auto s = window.solve(reference.uplink_free_at_s, policy);
      auto r = cbo::solve_online(reference, policy, cbo::FrameWindow::kAll);
      for (auto& i : r.offload) i = reference_index[i];
      INFO("stream " << stream << ", frame " << id);
      check_same_solution(s, r);
      largest = std::max(largest, window.size());
      if (s.offload.empty()) continue;
      // Offload the first frame: the uplink is busy with it; both forget it.
      const auto k = static_cast<std::size_t>(
          std::find(reference_index.begin(), reference_index.end(), s.offload.front()) -
          reference_index.begin());
      const auto& f = reference.frames[k];
      busy_until_s =
          cbo::upload_end_s(reference, f, static_cast<std::size_t>(s.resolution), reference.uplink_free_at_s);
      CHECK(window.erase(s.offload.front()));
      CHECK_FALSE(window.erase(s.offload.front()));
      reference.frames.erase(reference.frames.begin() + static_cast<std::ptrdiff_t>(k));
      reference_index.erase(reference_index.begin() + static_cast<std::ptrdiff_t>(k));
    }
    // What the window holds is bounded by the deadline window, not by the 300 frames seen.
    CHECK(largest < 100);
  }
}

TEST_CASE("cbo OnlineWindow: misuse is a programming error", "[cbo]") {
  cbo::Problem parameters;
  parameters.server_accuracy = {1.0};
  parameters.deadline_s = 1;
  cbo::OnlineWindow window(parameters);
  CHECK_THROWS_AS(window.add(cbo::Frame{0, 0.5, 0.5, {1, 2}, {}}),
                  std::invalid_argument);  // 2 sizes, 1 resolution
  CHECK(window.add(cbo::Frame{0, 0.5, 0.5, {0.5}, {}}) == 0);
  CHECK(window.add(cbo::Frame{0.5, 0.5, 0.5, {0.5}, {}}) == 1);
  CHECK(window.solve(0.25).offload == std::vector<std::size_t>{0, 1});
  CHECK_THROWS_AS(window.solve(0.125), std::invalid_argument);  // time went backwards
  // From 0.75, frame 0's 0.5 s upload would end at 1.25, past its deadline 0 + 1: expired, forgotten.
  // Frame 1 ends at 1.25 <= 0.5 + 1.
  const auto s = window.solve(0.75);
  CHECK(s.offload == std::vector<std::size_t>{1});
  CHECK(window.size() == 1);
}

namespace {

/// A backlog: frames arriving close together with a long deadline, so that many subsets fit and
/// the fronts grow (where the bound matters).
cbo::Problem random_backlog(std::mt19937_64& rng, std::size_t n, bool grid) {
  auto p = random_stream(rng, n, grid);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (auto& f : p.frames) f.arrival_s = grid ? 0.0 : 0.05 * unit(rng);
  p.deadline_s = grid ? 4.0 : 1.0 + 3.0 * unit(rng);
  p.uplink_free_at_s = 0;
  return p;
}

/// Best gain of frames order[j + 1 ..] alone, from an uplink free at t (exhaustive).
double exhaustive_rest(const cbo::Problem& p, const std::vector<std::size_t>& order, std::size_t j,
                       double t_s) {
  cbo::Problem rest = p;
  rest.frames.clear();
  for (std::size_t k = j + 1; k < order.size(); ++k) rest.frames.push_back(p.frames[order[k]]);
  rest.uplink_free_at_s = t_s;
  // The confidence order of `rest` is the order it was built in, as long as confidences decrease:
  // re-rank them so that the exhaustive search walks exactly order[j + 1 ..].
  for (std::size_t k = 0; k < rest.frames.size(); ++k) rest.frames[k].confidence = 1.0 - 1e-3 * double(k);
  return rest.frames.empty() ? 0.0 : cbo::testing::exhaustive_best_gain(rest);
}

}  // namespace

TEST_CASE("cbo gain bound: never below the best gain the remaining frames can add", "[cbo]") {
  std::mt19937_64 rng(0xB0B);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int instance = 0; instance < 300; ++instance) {
    const auto p = instance % 2 == 0 ? random_backlog(rng, 1 + rng() % 7, instance % 4 == 0)
                                     : random_stream(rng, 1 + rng() % 7, instance % 4 == 1);
    const auto order = cbo::confidence_order(p);
    std::vector<std::size_t> all(p.resolutions());
    for (std::size_t r = 0; r < all.size(); ++r) all[r] = r;
    std::vector<char> live(order.size());
    for (std::size_t j = 0; j < order.size(); ++j)
      live[j] = detail::can_offload(p, p.frames[order[j]], all, p.uplink_free_at_s);
    detail::GainBound bound(p, order, live, all);
    for (std::size_t j = 0; j < order.size(); ++j) {
      bound.advance_past(j);
      for (int probe = 0; probe < 4; ++probe) {
        const double t_s = p.uplink_free_at_s + unit(rng) * (probe == 0 ? 0.0 : 2.0);
        INFO("instance " << instance << ", position " << j << ", t " << t_s);
        CHECK(bound.at(t_s) >= exhaustive_rest(p, order, j, t_s) - 1e-12);
        CHECK(bound.at(t_s) <= bound.largest());
      }
    }
  }
}

TEST_CASE("cbo label DP: dropping the labels the bound rules out keeps every decision", "[cbo]") {
  std::mt19937_64 rng(0xD0D0);
  std::size_t pruned = 0;
  for (int instance = 0; instance < 1200; ++instance) {
    const bool grid = instance % 2 == 0;
    const auto p = instance % 3 == 0 ? random_stream(rng, 1 + rng() % 200, grid)
                                     : random_backlog(rng, 1 + rng() % 60, grid);
    std::vector<std::size_t> resolutions;
    if (instance % 5 == 0) resolutions = {rng() % p.resolutions()};
    const auto order = cbo::confidence_order(p);
    detail::LabelDpOptions options;
    options.value = detail::LabelValue::kGain;
    options.resolutions = resolutions;
    const auto plain = detail::run_label_dp(p, order, options);
    options.prune_by_bound = true;
    options.prune_from_labels = instance % 4 == 0 ? 1 : 8;
    options.skip_dead_frames = instance % 2 == 1;
    const auto pruned_run = detail::run_label_dp(p, order, options);
    INFO("instance " << instance);
    CHECK(pruned_run.decisions == plain.decisions);
    CHECK(pruned_run.best_value == plain.best_value);
    CHECK(pruned_run.peak_front <= plain.peak_front);
    pruned += pruned_run.pruned_labels;
  }
  CHECK(pruned > 10000);  // the bound did drop labels
}

TEST_CASE("cbo-online bounded: equals exhaustive search on small backlogs, pruning from the first label",
          "[cbo]") {
  std::mt19937_64 rng(0xFACE);
  for (int instance = 0; instance < 300; ++instance) {
    const auto p = random_backlog(rng, 1 + rng() % 8, instance % 2 == 0);
    detail::LabelDpOptions options;
    options.value = detail::LabelValue::kGain;
    options.prune_by_bound = true;
    options.prune_from_labels = 1;
    const auto dp = detail::run_label_dp(p, cbo::confidence_order(p), options);
    INFO("instance " << instance);
    CHECK(dp.best_value == Approx(cbo::testing::exhaustive_best_gain(p)).margin(1e-12));
    CHECK(cbo::testing::feasible(p, dp.decisions, cbo::testing::by_descending_confidence(p)));
  }
}
