// x264 as MobiEye runs it: I frames only at GoP starts, sizes that follow resolution and CRF.
#include <catch2/catch.hpp>

#include <numeric>

#include "sim/core/error.hpp"
#include "sim/video/clip_reader.hpp"
#include "sim/video/h264_encoder.hpp"
#include "sim/video/pan_source.hpp"
#include "tests/sim/video/still_image.hpp"

using namespace coinfer::video;
using Catch::Matchers::Contains;

namespace {

// Every encoded frame of a 12-frame 2 px/frame pan at `size`.
std::vector<EncodedFrame> encode_pan(Size size, const EncoderSettings& settings) {
  PanSource pan(read_still_yuv444(coinfer::test::kChinaJpg), {{{12, 2, 1}}, {320, 240}, 1.0}, {size});
  H264Encoder encoder(size, settings);
  std::vector<EncodedFrame> out;
  for (std::int64_t i = 0; auto p = pan.next(); ++i)
    for (auto& e : encoder.encode((*p)[0], i)) out.push_back(std::move(e));
  for (auto& e : encoder.flush()) out.push_back(std::move(e));
  return out;
}

std::size_t total_bytes(const std::vector<EncodedFrame>& frames) {
  return std::accumulate(frames.begin(), frames.end(), std::size_t{0},
                         [](std::size_t s, const EncodedFrame& e) { return s + e.data.size(); });
}

}  // namespace

TEST_CASE("the encoder makes an I frame every GoP and P frames in between, one per input in order") {
  SKIP_WITHOUT_CHINA_JPG();
  EncoderSettings s;
  s.gop = 5;
  const auto frames = encode_pan({320, 240}, s);
  REQUIRE(frames.size() == 12);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    INFO(i);
    CHECK(frames[i].index == static_cast<std::int64_t>(i));
    CHECK(frames[i].key == (i % 5 == 0));  // scenecut off: frames 0, 5, 10 only
  }
}

TEST_CASE("encoded sizes grow with resolution") {
  SKIP_WITHOUT_CHINA_JPG();
  // The same content upscaled to 4x and 16x the pixels costs more bytes at the same CRF.
  const auto small = total_bytes(encode_pan({320, 240}, {})),
             medium = total_bytes(encode_pan({640, 480}, {}));
  const auto large = total_bytes(encode_pan({1280, 960}, {}));
  CHECK(small < medium);
  CHECK(medium < large);
}

TEST_CASE("encoded sizes fall as CRF rises") {
  SKIP_WITHOUT_CHINA_JPG();
  EncoderSettings fine, coarse;
  fine.crf = 18;
  coarse.crf = 30;
  CHECK(total_bytes(encode_pan({320, 240}, coarse)) < total_bytes(encode_pan({320, 240}, {})));
  CHECK(total_bytes(encode_pan({320, 240}, {})) < total_bytes(encode_pan({320, 240}, fine)));
}

TEST_CASE("a bitrate target changes the stream's size in its direction") {
  SKIP_WITHOUT_CHINA_JPG();
  EncoderSettings low, high;
  low.bitrate_kbps = 100;
  high.bitrate_kbps = 1000;
  CHECK(total_bytes(encode_pan({320, 240}, low)) < total_bytes(encode_pan({320, 240}, high)));
}

TEST_CASE("bad encoder settings name their option") {
  EncoderSettings s;
  s.gop = 0;
  CHECK_THROWS_WITH(H264Encoder({320, 240}, s), Contains("--gop: expected an integer >= 1, got 0"));
  s = {};
  s.preset = "warp";
  CHECK_THROWS_WITH(H264Encoder({320, 240}, s),
                    Contains("--preset: expected one of ultrafast, superfast, veryfast, faster, fast, "
                             "medium, slow, slower, veryslow, placebo; got 'warp'"));
}
