// Motion vectors read back from x264's stream recover a pan's known motion.
#include <catch2/catch.hpp>

#include "sim/video/clip_reader.hpp"
#include "sim/video/motion_vectors.hpp"
#include "sim/video/pan_source.hpp"
#include "tests/sim/video/still_image.hpp"

using namespace coinfer::video;

namespace {

// Mean over the P frames of the per-frame mean |MV| of a 20-frame 320x240 pan at (dx, 0) px/frame.
double mean_pan_motion(double dx) {
  PanSource pan(read_still_yuv444(coinfer::test::kChinaJpg), {{{20, dx, 0}}, {320, 240}, 1.0}, {{320, 240}});
  H264Encoder encoder({320, 240}, EncoderSettings{});
  MotionDecoder decoder;
  double sum = 0.0;
  int p_frames = 0;
  auto decode = [&](const std::vector<EncodedFrame>& frames) {
    for (const auto& e : frames)
      for (const auto& d : decoder.decode(e))
        if (d.type == 'P') sum += summarize_motion(d.blocks).mean_px, ++p_frames;
  };
  for (std::int64_t i = 0; auto p = pan.next(); ++i) decode(encoder.encode((*p)[0], i));
  decode(encoder.flush());
  for (const auto& d : decoder.flush()) sum += summarize_motion(d.blocks).mean_px, ++p_frames;
  REQUIRE(p_frames == 19);  // GoP 30 > 20 frames: one I frame, then P frames
  return sum / p_frames;
}

}  // namespace

TEST_CASE("summarize_motion weighs each vector by its block's area") {
  // (256 * |(3, 4)| + 64 * 0) / (256 + 64) = 1280 / 320 = 4 px.
  const auto s = summarize_motion({{16, 16, 8, 8, 3.0, 4.0}, {8, 8, 20, 4, 0.0, 0.0}});
  CHECK(s.mean_px == Approx(4.0));
  CHECK(s.count == 2);
  CHECK(summarize_motion({}).mean_px == 0.0);
}

TEST_CASE("motion vectors of a 2 px/frame pan recover 2 px within 5%") {
  SKIP_WITHOUT_CHINA_JPG();
  // The window (320x240, output 320x240) moves 2 image px per frame: content moves 2 output px per frame.
  // 20 frames starting centred in the 640x427 image travel 38 of the 160 px of room: no bounce.
  CHECK(mean_pan_motion(2.0) == Approx(2.0).epsilon(0.05));
}

TEST_CASE("motion vectors of a 6 px/frame pan recover 6 px within 5%") {
  SKIP_WITHOUT_CHINA_JPG();
  // 19 steps of 6 px = 114 px < 160 px of room: no bounce either.
  CHECK(mean_pan_motion(6.0) == Approx(6.0).epsilon(0.05));
}
