// Effective accuracy (Hu & Krishnamachari sec. III) on hand-built frame records.
#include "sim/metrics/effective_accuracy.hpp"

#include <catch2/catch.hpp>

#include "tests/sim/metrics/frame_records.hpp"

using coinfer::DropReason;
using coinfer::FrameRecord;

namespace {

FrameRecord completed(double release_s, std::uint32_t variant, bool deadline_met = true) {
  return coinfer::test::completed_frame(release_s, release_s + 0.5, deadline_met, variant);
}

FrameRecord dropped(double release_s) { return coinfer::test::dropped_frame(release_s); }

}  // namespace

TEST_CASE("effective accuracy: completed frames weighted by their variant's nu over generated", "[metrics]") {
  // Six frames at 1 fps: t=0 variant 0 (nu 0.9), t=1 dropped, t=2 variant 1 (nu 0.8), t=3 variant 1
  // but late (counts 0), t=4 variant 0, t=5 dropped. nu_eff = (0.9 + 0.8 + 0.9) / 6 = 2.6 / 6;
  // mean accuracy over the 3 frames on time = 2.6 / 3. Windows of 3 s: [0,3) holds 0.9 + 0.8 of 3
  // frames = 1.7 / 3; [3,6) holds 0.9 of 3 frames = 0.3.
  const std::vector<FrameRecord> frames = {completed(0, 0),        dropped(1),      completed(2, 1),
                                           completed(3, 1, false), completed(4, 0), dropped(5)};
  const auto e = coinfer::effective_accuracy(frames, {0.9, 0.8}, 3.0);
  CHECK(e.generated == 6);
  CHECK(e.completed == 3);
  CHECK(e.effective_accuracy == Approx(2.6 / 6));
  CHECK(e.mean_accuracy == Approx(2.6 / 3));
  REQUIRE(e.windows.size() == 2);
  CHECK(e.windows[0].start_s == 0.0);
  CHECK(e.windows[0].generated == 3);
  CHECK(e.windows[0].effective_accuracy == Approx(1.7 / 3));
  CHECK(e.windows[1].completed == 1);
  CHECK(e.windows[1].effective_accuracy == Approx(0.3));
}

TEST_CASE("effective accuracy: a frame's accuracy is its variant's nu, 0 when dropped", "[metrics]") {
  CHECK(coinfer::frame_accuracy(completed(0, 1), {0.9, 0.7}) == 0.7);
  CHECK(coinfer::frame_accuracy(dropped(0), {0.9, 0.7}) == 0.0);
  CHECK_THROWS_WITH(coinfer::frame_accuracy(completed(0, 2), {0.9, 0.7}), Catch::Contains("variant 2"));
}

TEST_CASE("effective accuracy: plans without an accuracy give no metric", "[metrics]") {
  coinfer::Plan a, b;
  a.facts = std::make_shared<const coinfer::PlanFileFacts>(std::map<std::string, double>{{"accuracy", 0.9}});
  CHECK_FALSE(coinfer::variant_accuracies({a, b}).has_value());
  b.facts = std::make_shared<const coinfer::PlanFileFacts>(std::map<std::string, double>{{"accuracy", 0.8}});
  CHECK(*coinfer::variant_accuracies({a, b}) == std::vector<double>{0.9, 0.8});
  coinfer::SimulationResult r;
  r.frames = {completed(0, 0), dropped(1)};
  CHECK(coinfer::effective_accuracy_metrics({a, coinfer::Plan{}}, r) == coinfer::Json::object());
  const auto j = coinfer::effective_accuracy_metrics({a, b}, r);
  CHECK(j["effective_accuracy"].get<double>() == Approx(0.45));
  CHECK(j["effective_accuracy_windows"].size() == 10);
}
