// Key-frame policies (schedulers/mobieye/key_frames.hpp): the static interval, VDS [Mao-PhD §4.4.3]
// with our stated readings, its parameters, and the Fig. 4.15 grid of VDS ranges.
#include "schedulers/mobieye/key_frames.hpp"

#include <cmath>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"

namespace mobieye = coinfer::mobieye;
using Catch::Matchers::Contains;
using coinfer::InputError;

namespace {

std::vector<std::size_t> key_indices(const std::vector<bool>& keys) {
  std::vector<std::size_t> out;
  for (std::size_t f = 0; f < keys.size(); ++f)
    if (keys[f]) out.push_back(f);
  return out;
}

std::string params_error(const std::string& json) {
  try {
    mobieye::VdsParams::from_json(coinfer::Json::parse(json), "s.yaml", "scheduler.vds");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a static interval makes every k-th frame a key frame, from frame 0") {
  auto every3 = mobieye::static_interval(3);
  CHECK(key_indices(mobieye::key_frames(*every3, 7)) == std::vector<std::size_t>{0, 3, 6});
  auto every1 = mobieye::static_interval(1);
  CHECK(key_indices(mobieye::key_frames(*every1, 3)) == std::vector<std::size_t>{0, 1, 2});
}

TEST_CASE("the average key-frame interval is frames over key frames") {
  CHECK(mobieye::average_key_interval({true, false, false, true, false}) == 2.5);  // 5 / 2
  CHECK(mobieye::average_key_interval({true}) == 1.0);
  CHECK(std::isnan(mobieye::average_key_interval({false, false})));
  CHECK(std::isnan(mobieye::average_key_interval({})));
}

TEST_CASE("VDS maps motion onto the interval range, high motion short, rounded half away from zero") {
  const mobieye::VdsParams p{0.0, 10.0, 5, 20};
  // fi = 20 - m / 10 * 15, m clamped to [0, 10].
  CHECK(mobieye::vds_interval(p, 0) == 20);
  CHECK(mobieye::vds_interval(p, 2) == 17);  // 20 - 3
  CHECK(mobieye::vds_interval(p, 5) == 13);  // 12.5, half away from zero
  CHECK(mobieye::vds_interval(p, 10) == 5);
  CHECK(mobieye::vds_interval(p, 15) == 5);  // clamped to mv_max
  const mobieye::VdsParams from2{2.0, 10.0, 5, 20};
  CHECK(mobieye::vds_interval(from2, 1) == 20);  // clamped to mv_min
  CHECK(mobieye::vds_interval(from2, 6) == 13);  // 20 - 4 / 8 * 15 = 12.5
}

TEST_CASE("VDS decisions on a 15-frame sequence, with the accumulated-motion reset") {
  // mv [0, 10] -> fi [6, 2]: fi = 6 - 0.4 m, rounded. Frame by frame (acc counts the frame's motion):
  //  f0            key (always)
  //  f1 m 5    acc 5     fi 4   1 since key
  //  f2 m 5    acc 10    fi 4   2           (10 is not > 10: no reset)
  //  f3 m 1    acc 11 -> fi 2   3 >= 2: KEY (without the frame's own motion acc would be 10, fi 6)
  //  f4-f6 m 0 acc 0     fi 6   1, 2, 3
  //  f7 m 3.75 acc 3.75  fi 4.5 -> 5   4    (rounding down would make f7 a key frame)
  //  f8 m 3.75 acc 7.5   fi 5   5 >= 5: KEY
  //  f9-f14 m 0          fi 6   f14 is 6 after f8: KEY
  const mobieye::VdsParams p{0.0, 10.0, 2, 6};
  auto policy = mobieye::vds(p, {0, 5, 5, 1, 0, 0, 0, 3.75, 3.75, 0, 0, 0, 0, 0, 0});
  const auto keys = mobieye::key_frames(*policy, 15);
  CHECK(key_indices(keys) == std::vector<std::size_t>{0, 3, 8, 14});
  CHECK(mobieye::average_key_interval(keys) == 3.75);  // 15 / 4
}

TEST_CASE("VDS makes frame 0 a key frame whatever its motion, and ignores that motion") {
  // Counted, frame 0's 50 px would make acc 50 > 10 at f1, fi 2, and f2 a key frame; ignored, f1-f2
  // (m 0) map to fi 6 and neither is a key frame.
  const mobieye::VdsParams p{0.0, 10.0, 2, 6};
  auto policy = mobieye::vds(p, {50, 0, 0});
  CHECK(key_indices(mobieye::key_frames(*policy, 3)) == std::vector<std::size_t>{0});
}

TEST_CASE("VDS parameters come from JSON with mv_min defaulting to 0") {
  const auto p = mobieye::VdsParams::from_json(
      coinfer::Json::parse(R"({"mv_max": 20, "fi_min": 5, "fi_max": 30})"), "s.yaml", "scheduler.vds");
  CHECK(p.mv_min == 0.0);
  CHECK(p.mv_max == 20.0);
  CHECK(p.fi_min == 5);
  CHECK(p.fi_max == 30);
}

TEST_CASE("reversed or out-of-range VDS parameters are InputErrors naming the key") {
  CHECK_THAT(params_error(R"({"mv_max": 20, "fi_min": 40, "fi_max": 30})"),
             Contains("s.yaml: scheduler.vds.fi_min: expected <= fi_max (30), got 40"));
  CHECK_THAT(params_error(R"({"mv_max": 2, "mv_min": 2, "fi_min": 5, "fi_max": 30})"),
             Contains("scheduler.vds.mv_max: expected > mv_min (2), got 2"));
  CHECK_THAT(params_error(R"({"mv_max": 20, "fi_min": 0, "fi_max": 30})"), Contains("scheduler.vds.fi_min"));
  CHECK_THAT(params_error(R"({"mv_max": 20, "fi_min": 5})"), Contains("scheduler.vds.fi_max"));
  CHECK_THAT(params_error(R"({"mv_max": 20, "fi_min": 5, "fi_max": 30, "mv_mx": 1})"),
             Contains("scheduler.vds.mv_mx: unknown key"));
}

TEST_CASE("the 27 VDS ranges of Fig. 4.15 give average intervals inside their range, growing with fi_max") {
  // A synthetic clip alternating still (0.05 px/frame), moderate (4 px) and fast (12 px) stretches:
  // still stretches accumulate 0.05 * 40 = 2 px over the longest interval, below every mv_max, so
  // there the interval is fi_max's; fast ones map to fi_min.
  std::vector<double> motion;
  for (int round = 0; round < 5; ++round)
    for (auto [px, n] : {std::pair{0.05, 300}, std::pair{4.0, 100}, std::pair{12.0, 60}, std::pair{0.5, 140}})
      motion.insert(motion.end(), n, px);
  for (double mv_max : {10.0, 20.0, 30.0})
    for (int fi_min : {5, 10, 15}) {
      double previous = 0;
      for (int fi_max : {20, 30, 40}) {
        auto policy = mobieye::vds({0.0, mv_max, fi_min, fi_max}, motion);
        const double average = mobieye::average_key_interval(mobieye::key_frames(*policy, motion.size()));
        INFO("mv_max " << mv_max << " fi_min " << fi_min << " fi_max " << fi_max << ": " << average);
        CHECK(average >= fi_min);
        CHECK(average <= fi_max);
        CHECK(average > previous);
        previous = average;
      }
    }
}
