// The merged front step of the CBO label DP against the literal "extend every pair, then remove
// the dominated ones" of Algorithm 1 lines 4-12.
#include "schedulers/cbo/label_dp.hpp"

#include <limits>
#include <random>

#include <catch2/catch.hpp>

#include "tests/schedulers/cbo/cbo_test_support.hpp"

namespace cbo = coinfer::cbo;
namespace detail = coinfer::cbo::detail;

TEST_CASE("cbo label DP: prune_dominated keeps exactly the non-dominated labels", "[cbo]") {
  // (1, 0.5) is dominated by (0.5, 0.5) (earlier, as good); (2, 0.25) by both; (0.5, 0.25) by
  // (0.5, 0.5) (same time, worse). Left: (0.5, 0.5), (1.5, 0.75).
  std::vector<detail::Label> labels{
      {1, 0.5, 0, -1}, {0.5, 0.5, 1, -1}, {2, 0.25, 2, -1}, {1.5, 0.75, 3, -1}, {0.5, 0.25, 4, -1}};
  detail::prune_dominated(labels);
  REQUIRE(labels.size() == 2);
  CHECK(labels[0].t_s == 0.5);
  CHECK(labels[0].value == 0.5);
  CHECK(labels[1].t_s == 1.5);
  CHECK(labels[1].value == 0.75);
}

TEST_CASE("cbo label DP: the merged step equals extend-all then prune", "[cbo]") {
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int instance = 0; instance < 500; ++instance) {
    const auto p = cbo::testing::random_problem(rng, 4, 4);
    const bool grid = instance % 2 == 0;  // ties in time and value
    // A random front: random labels, pruned.
    std::vector<detail::Label> front;
    const int size = 1 + static_cast<int>(unit(rng) * 30);
    for (int k = 0; k < size; ++k) {
      const double t = grid ? static_cast<double>(static_cast<int>(unit(rng) * 8)) / 8.0 : unit(rng);
      const double v = grid ? static_cast<double>(static_cast<int>(unit(rng) * 8)) / 8.0 : unit(rng);
      front.push_back({t, v, -1, -1});
    }
    detail::prune_dominated(front);
    std::vector<std::size_t> resolutions;
    for (std::size_t r = 0; r < p.resolutions(); ++r)
      if (instance % 3 != 0 || r == 0) resolutions.push_back(r);
    detail::FrontStep step;
    step.value = instance % 4 < 2 ? detail::LabelValue::kAccuracy : detail::LabelValue::kGain;
    step.resolutions = &resolutions;
    step.clamp_s = instance % 5 == 0 ? 0.5 : -std::numeric_limits<double>::infinity();

    for (const auto& frame : p.frames) {
      std::vector<detail::Label> expected, merged;
      detail::extend_all(p, frame, front, step, expected);
      detail::prune_dominated(expected);
      detail::next_front(p, frame, front, step, merged);
      INFO("instance " << instance);
      REQUIRE(merged.size() == expected.size());
      for (std::size_t k = 0; k < merged.size(); ++k) {
        CHECK(merged[k].t_s == expected[k].t_s);
        CHECK(merged[k].value == expected[k].value);
        if (k > 0) CHECK(merged[k].t_s > merged[k - 1].t_s);
      }
    }
  }
}
