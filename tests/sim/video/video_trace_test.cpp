// The whole chain, from a pan to the CSV: its columns, its empty cells and its reproducibility.
#include <catch2/catch.hpp>

#include <sstream>

#include "sim/core/error.hpp"
#include "sim/video/clip_reader.hpp"
#include "sim/video/pan_source.hpp"
#include "sim/video/video_trace.hpp"
#include "tests/sim/video/still_image.hpp"

using namespace coinfer::video;
using Catch::Matchers::Contains;

namespace {

std::string pan_csv(const VideoTraceOptions& o, std::vector<PanSegment> segments) {
  PanSource pan(read_still_yuv444(coinfer::test::kChinaJpg), {std::move(segments), {320, 240}, 1.0}, o.sizes);
  return format_video_trace(make_video_trace(pan, o));
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("the video trace CSV has the documented header, one column of bytes per size") {
  SKIP_WITHOUT_CHINA_JPG();
  VideoTraceOptions o;
  o.sizes = {{320, 240}, {640, 480}};
  const auto rows = lines(pan_csv(o, {{3, 2, 0}}));
  REQUIRE(rows.size() == 4);  // header + 3 frames
  CHECK(
      rows[0] ==
      "frame,type,motion_px,mv_count,mask_density,feedback_density,mask_d1,mask_d2,mask_d4,mask_d8,mask_d16,"
      "mask_d32,bytes_320x240,bytes_640x480");
  o.host_times = true;
  CHECK(lines(pan_csv(o, {{1, 0, 0}}))[0].ends_with(
      ",bytes_320x240,bytes_640x480,host_encode_ms_320x240,host_encode_ms_640x480,host_decode_ms"));
}

TEST_CASE("the video trace's I frames have no motion and no mask, and mask_d<d> is empty before frame d") {
  SKIP_WITHOUT_CHINA_JPG();
  VideoTraceOptions o;
  o.sizes = {{320, 240}};
  o.encoder.gop = 4;
  const auto rows = lines(pan_csv(o, {{6, 3, 0}}));
  REQUIRE(rows.size() == 7);
  const auto f0 = split(rows[1]), f2 = split(rows[3]), f4 = split(rows[5]);
  CHECK(f0[1] == "I");
  CHECK(f0[2] == "0.0000");
  CHECK(f0[6] == "");   // mask_d1 of frame 0: no frame -1
  CHECK(f4[1] == "I");  // GoP 4: frames 0 and 4
  CHECK(f4[4] == "0.000000");
  CHECK(f2[1] == "P");
  CHECK(f2[6] != "");  // mask_d1 and mask_d2 exist at frame 2 ...
  CHECK(f2[7] != "");
  CHECK(f2[8] == "");          // ... mask_d4 does not
  CHECK(f2[4] == f2[7]);       // frame 2 against the key frame 0 is its mask_d2
  CHECK(f2[5] == "1.000000");  // a pan moves every macroblock: the feedback mask covers the frame
}

TEST_CASE("a still pan has (next to) no motion and an empty feedback mask") {
  SKIP_WITHOUT_CHINA_JPG();
  VideoTraceOptions o;
  o.sizes = {{320, 240}};
  for (const auto& row : lines(pan_csv(o, {{4, 0, 0}}))) {
    if (row.starts_with("frame")) continue;
    const auto c = split(row);
    CHECK(std::stod(c[2]) < 0.05);  // x264 may give static blocks quarter-pixel vectors
    CHECK(c[5] == "0.000000");      // ... which are not motion to the feedback mask
  }
}

TEST_CASE("the same options give a byte-identical video trace") {
  SKIP_WITHOUT_CHINA_JPG();
  VideoTraceOptions o;
  o.sizes = {{320, 240}, {640, 480}};
  o.encoder.gop = 5;
  const std::vector<PanSegment> speeds{{4, 0, 0}, {4, 2, 1}, {4, 6, 0}};
  CHECK(pan_csv(o, speeds) == pan_csv(o, speeds));
}

TEST_CASE("video trace options out of range name their option") {
  SKIP_WITHOUT_CHINA_JPG();
  VideoTraceOptions o;
  o.sizes = {{320, 240}};
  o.threshold = 0;
  CHECK_THROWS_WITH(pan_csv(o, {{1, 0, 0}}), Contains("--threshold: expected an integer in [1, 255], got 0"));
  o.threshold = 15;
  o.margin_px = -1;
  CHECK_THROWS_WITH(pan_csv(o, {{1, 0, 0}}), Contains("--margin-px"));
}
