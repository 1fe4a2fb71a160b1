// The seeded synthetic trace generator (schedulers/cbo/synthetic_trace.hpp): determinism, and its
// empirical rates match its parameters within sampling error.
#include "schedulers/cbo/synthetic_trace.hpp"

#include <cmath>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"

namespace cbo = coinfer::cbo;
using Catch::Matchers::Contains;
using coinfer::InputError;

namespace {

cbo::SyntheticTraceOptions large(std::uint64_t seed) {
  cbo::SyntheticTraceOptions o;
  o.seed = seed;
  o.videos = 20;
  o.frames_per_video = 1000;  // 20,000 frames
  return o;
}

// 4 standard errors of a proportion p estimated from n draws: a false alarm has odds ~ 1 in 16,000.
double four_sigma(double p, std::size_t n) { return 4 * std::sqrt(p * (1 - p) / static_cast<double>(n)); }

}  // namespace

TEST_CASE("the same seed gives a byte-identical synthetic trace, another seed a different one") {
  cbo::SyntheticTraceOptions o;
  const auto a = cbo::format_frame_trace(cbo::make_synthetic_trace(o));
  CHECK(a == cbo::format_frame_trace(cbo::make_synthetic_trace(o)));
  o.seed = 13;
  CHECK(a != cbo::format_frame_trace(cbo::make_synthetic_trace(o)));
}

TEST_CASE("a synthetic trace reads back through the trace reader") {
  const auto t = cbo::make_synthetic_trace({});
  const auto back = cbo::parse_frame_trace(cbo::format_frame_trace(t), "t.csv");
  CHECK(back.resolutions_px == std::vector<int>{45, 90, 134, 179, 224});
  REQUIRE(back.frames.size() == 240);  // 4 videos x 60 frames
  CHECK(back.frames[61].video == "v01");
  CHECK(back.frames[61].index == 1);
  CHECK(back.frames[0].size_bytes == t.frames[0].size_bytes);
  CHECK(back.frames[0].confidence == Approx(t.frames[0].confidence).margin(5e-7));  // 6 decimals
}

TEST_CASE("the server's empirical accuracy per resolution matches the parameters within 4 sigma") {
  const auto o = large(5);
  const auto t = cbo::make_synthetic_trace(o);
  const std::size_t n = t.frames.size();
  for (std::size_t r = 0; r < o.resolutions_px.size(); ++r) {
    double right = 0;
    for (const auto& f : t.frames) right += f.server_correct[r];
    INFO("resolution " << o.resolutions_px[r]);
    CHECK(std::abs(right / n - o.server_accuracy[r]) < four_sigma(o.server_accuracy[r], n));
  }
}

TEST_CASE("the local model is right at the miscalibration curve's rate, confidence by confidence") {
  // Frames with confidence in a narrow band around s = sigmoid(z) are right with probability about
  // sigmoid(0.45 z - 0.3), not s: at z = 4 (s = 0.982) that is sigmoid(1.5) = 0.818.
  const auto o = large(6);
  const auto t = cbo::make_synthetic_trace(o);
  for (double z : {0.0, 2.0, 4.0}) {
    const double lo = 1 / (1 + std::exp(-(z - 0.25))), hi = 1 / (1 + std::exp(-(z + 0.25)));
    double n = 0, right = 0;
    for (const auto& f : t.frames)
      if (f.confidence >= lo && f.confidence < hi) n += 1, right += f.correct;
    const double expected = 1 / (1 + std::exp(-(o.slope * z + o.offset)));
    INFO("z " << z << ": " << n << " frames");
    REQUIRE(n > 500);  // 0.5 / 7 of 20,000 frames fall in each band
    // the band spans z +- 0.25, moving the rate by at most 0.45 x 0.25 / 4 = 0.028 either way
    CHECK(std::abs(right / n - expected) < four_sigma(expected, static_cast<std::size_t>(n)) + 0.03);
  }
}

TEST_CASE("synthetic frame sizes average bytes-per-pixel x px^2 and stay within the jitter") {
  const auto o = large(7);
  const auto t = cbo::make_synthetic_trace(o);
  for (std::size_t r = 0; r < o.resolutions_px.size(); ++r) {
    const double nominal = o.bytes_per_pixel * o.resolutions_px[r] * o.resolutions_px[r];
    double sum = 0;
    for (const auto& f : t.frames) {
      CHECK(f.size_bytes[r] >= std::round(nominal * 0.7) - 1);
      CHECK(f.size_bytes[r] <= std::round(nominal * 1.3) + 1);
      sum += f.size_bytes[r];
    }
    // U(0.7, 1.3) has standard deviation 0.6 / sqrt(12) = 0.173: the mean's is 0.173 / sqrt(20,000)
    CHECK(sum / t.frames.size() == Approx(nominal).epsilon(4 * 0.173 / std::sqrt(20000.0) + 1e-3));
  }
}

TEST_CASE("synthetic trace options are checked, naming the option") {
  auto error_of = [](cbo::SyntheticTraceOptions o) -> std::string {
    try {
      cbo::make_synthetic_trace(o);
    } catch (const InputError& e) {
      return e.path() + ": " + e.message();
    }
    return "";
  };
  cbo::SyntheticTraceOptions o;
  o.server_accuracy = {0.5};
  CHECK_THAT(error_of(o), Contains("accuracy-per-resolution: expected 5 accuracies"));
  o = {};
  o.server_accuracy[2] = 1.5;
  CHECK_THAT(error_of(o), Contains("accuracy-per-resolution: expected numbers in [0, 1], got 1.5"));
  o = {};
  o.resolutions_px = {90, 45, 134, 179, 224};
  CHECK_THAT(error_of(o), Contains("resolutions: expected increasing resolutions, got 45 after 90"));
  o = {};
  o.logit_lo = 3;
  o.logit_hi = 1;
  CHECK_THAT(error_of(o), Contains("logit-range"));
  o = {};
  o.size_jitter = 1;
  CHECK_THAT(error_of(o), Contains("size-jitter"));
  o = {};
  o.bytes_per_pixel = 0;
  CHECK_THAT(error_of(o), Contains("bytes-per-pixel"));
}
