// Reading pictures through libavformat/libavcodec: an image at its own size, a text file refused.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/video/clip_reader.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/sim/video/still_image.hpp"

using namespace coinfer::video;
using Catch::Matchers::Contains;

TEST_CASE("a JPEG reads as one frame, scaled to every requested size") {
  SKIP_WITHOUT_CHINA_JPG();
  ClipReader reader(coinfer::test::kChinaJpg, {{320, 240}, {64, 48}});
  CHECK(reader.source_size() == Size{640, 427});
  const auto frame = reader.next();
  REQUIRE(frame);
  CHECK((*frame)[0].size() == Size{320, 240});
  CHECK((*frame)[1].u.width == 32);
  CHECK_FALSE(reader.next());
}

TEST_CASE("a still image reads at its own size with full-size chroma") {
  SKIP_WITHOUT_CHINA_JPG();
  const auto p = read_still_yuv444(coinfer::test::kChinaJpg);
  CHECK(p.y.width == 640);
  CHECK(p.u.height == 427);
}

TEST_CASE("a text file is not a clip: the error names the file") {
  const coinfer::test::ScratchDir dir;
  const auto path = dir.write("notes.txt", "frame,type\n0,I\n");
  CHECK_THROWS_WITH(ClipReader(path, {{320, 240}}), Contains(path + ": expected a video clip or an image"));
  const auto missing = dir.path() + "/missing.avi";
  CHECK_THROWS_AS(ClipReader(missing, {{320, 240}}), coinfer::InputError);
}
