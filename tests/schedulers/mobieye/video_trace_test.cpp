// The per-frame video trace reader (schedulers/mobieye/video_trace.hpp): columns, sizes, host times,
// errors naming the file, the line and the column, and eq. 4.2 density by feature age.
#include "schedulers/mobieye/video_trace.hpp"

#include <cmath>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "tests/scratch_dir.hpp"

namespace mobieye = coinfer::mobieye;
using Catch::Matchers::Contains;
using coinfer::InputError;

namespace {

// Three frames at two sizes, host encode times at 320x240 only, an extra `note` column (17 cells).
const std::string kGood =
    "frame,type,motion_px,mv_count,mask_density,feedback_density,mask_d1,mask_d2,mask_d4,mask_d8,mask_d16,"
    "mask_d32,bytes_320x240,bytes_640x480,host_encode_ms_320x240,host_decode_ms,note\n"
    "0,I,0,0,0,0,,,,,,,5120,15360,0.6,1.2,start\n"
    "1,P,1.95,300,0.04,0.2,0.04,,,,,,150,420,,1.1,x\r\n"
    "2,P,5.9,310,0.09,0.25,0.05,0.09,,,,,239,700,0.7,,y\n";

// kGood with the first `from` replaced by `to`.
std::string with(const std::string& from, const std::string& to) {
  std::string text = kGood;
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string error_of(const std::string& text) {
  try {
    mobieye::parse_video_trace(text, "t.csv");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// A trace of `n` frames, all-zero but for what a test sets.
mobieye::VideoTrace frames(std::size_t n) {
  mobieye::VideoTrace t;
  t.frames.resize(n);
  for (auto& f : t.frames) f.mask_by_age.fill(std::nan(""));
  return t;
}

}  // namespace

TEST_CASE("a video trace gives every column of every frame") {
  const auto t = mobieye::parse_video_trace(kGood, "t.csv");
  REQUIRE(t.sizes.size() == 2);
  CHECK(mobieye::size_name(t.sizes[0]) == "320x240");
  CHECK(mobieye::size_name(t.sizes[1]) == "640x480");
  REQUIRE(t.frames.size() == 3);
  const auto& f = t.frames[2];
  CHECK(f.type == 'P');
  CHECK(f.motion_px == 5.9);
  CHECK(f.mv_count == 310);
  CHECK(f.mask_density == 0.09);
  CHECK(f.feedback_density == 0.25);
  CHECK(f.mask_by_age[0] == 0.05);
  CHECK(f.mask_by_age[1] == 0.09);
  CHECK(std::isnan(f.mask_by_age[2]));  // frame 2 < 4: empty
  CHECK(f.bytes == std::vector<double>{239, 700});
  CHECK(f.line == 4);
  CHECK(t.frames[0].type == 'I');
  CHECK(t.motion() == std::vector<double>{0, 1.95, 5.9});
}

TEST_CASE("host times read NaN where the cell is empty or the column is absent") {
  const auto t = mobieye::parse_video_trace(kGood, "t.csv");
  CHECK(t.frames[0].host_encode_ms[0] == 0.6);
  CHECK(std::isnan(t.frames[0].host_encode_ms[1]));  // no host_encode_ms_640x480 column
  CHECK(std::isnan(t.frames[1].host_encode_ms[0]));  // empty cell
  CHECK(t.frames[1].host_decode_ms == 1.1);
  CHECK(std::isnan(t.frames[2].host_decode_ms));
}

TEST_CASE("a trace's size is found by its WxH name, and an unknown one lists the sizes") {
  const auto t = mobieye::parse_video_trace(kGood, "t.csv");
  CHECK(t.size_index("640x480", "frame_size") == 1);
  CHECK_THROWS_WITH(
      t.size_index("100x100", "workload.frame_size"),
      "workload.frame_size: expected one of the trace's sizes: 320x240, 640x480; got '100x100'");
}

TEST_CASE("a trace without a required column is an InputError naming it and the header line") {
  CHECK(error_of(with("mv_count", "mvcount")) == "t.csv: line 1: missing column 'mv_count'");
  CHECK(error_of(with("mask_d16", "mask_d15")) == "t.csv: line 1: missing column 'mask_d16'");
}

TEST_CASE("a trace without any bytes_<W>x<H> column is an InputError") {
  const auto text = with("bytes_320x240,bytes_640x480", "size_a,size_b");
  CHECK_THAT(error_of(text), Contains("t.csv: line 1: missing column 'bytes_<W>x<H>'"));
}

TEST_CASE("a column named twice in a trace is an InputError") {
  CHECK(error_of(with("note", "type")) == "t.csv: line 1: column 'type' appears twice");
  // The same size written two ways is the same column too.
  CHECK_THAT(error_of(with("bytes_640x480", "bytes_0320x240")),
             Contains("columns 'bytes_320x240' and 'bytes_0320x240' name the same size"));
}

TEST_CASE("a malformed size column name is an InputError") {
  CHECK_THAT(error_of(with("bytes_640x480", "bytes_640")),
             Contains("t.csv: line 1: column 'bytes_640': expected bytes_<W>x<H>"));
}

TEST_CASE("a host encode time for a size without bytes is an InputError") {
  CHECK(error_of(with("host_encode_ms_320x240", "host_encode_ms_100x100")) ==
        "t.csv: line 1: column 'host_encode_ms_100x100' has no matching 'bytes_100x100'");
}

TEST_CASE("a frame type other than I or P is an InputError naming line and column") {
  CHECK(error_of(with("1,P,", "1,X,")) == "t.csv: line 3: column 'type': expected I or P, got 'X'");
}

TEST_CASE("a density outside [0, 1] is an InputError naming line and column") {
  CHECK(error_of(with("0.04,0.2,", "0.04,1.5,")) ==
        "t.csv: line 3: column 'feedback_density': expected a density in [0, 1], got '1.5'");
}

TEST_CASE("a frame of 0 bytes, or of a fractional number of bytes, is an InputError") {
  CHECK(error_of(with(",150,", ",0,")) ==
        "t.csv: line 3: column 'bytes_320x240': expected an integer number of bytes >= 1, got '0'");
  CHECK_THAT(error_of(with(",150,", ",150.5,")), Contains("line 3: column 'bytes_320x240'"));
}

TEST_CASE("a row with more cells than the header is an InputError naming its line") {
  CHECK(error_of(with(",y\n", ",y,extra\n")) ==
        "t.csv: line 4: expected 17 cells (as in the header), got 18");
}

TEST_CASE("a mask_d<d> cell may be empty only before frame d") {
  // Frame 2 compares against frame 0 at d = 2: its mask_d2 cell must hold a density.
  CHECK(error_of(with("0.05,0.09,", "0.05,,")) ==
        "t.csv: line 4: column 'mask_d2': expected a density in [0, 1] (frame >= 2), got ''");
}

TEST_CASE("trace rows must be frames 0, 1, 2, ... in order") {
  CHECK_THAT(error_of(with("2,P,", "3,P,")), Contains("t.csv: line 4: column 'frame': expected 2"));
}

TEST_CASE("a trace with no frame rows is an InputError") {
  CHECK(error_of(kGood.substr(0, kGood.find('\n') + 1)) == "t.csv: no frames after the header line");
  CHECK(error_of("") == "t.csv: empty file, expected a header line");
}

TEST_CASE("read_video_trace reads a file and names a missing file or a folder") {
  const coinfer::test::ScratchDir dir;
  const auto path = dir.write("v.csv", kGood);
  CHECK(mobieye::read_video_trace(path).frames.size() == 3);
  CHECK_THROWS_WITH(mobieye::read_video_trace(dir.path() + "/none.csv"),
                    Contains("none.csv: file not found"));
  CHECK_THROWS_WITH(mobieye::read_video_trace(dir.path()), Contains("is a directory"));
}

TEST_CASE("mask density by age interpolates between the mask_d columns and clamps beyond d = 32") {
  auto t = frames(41);
  t.frames[40].mask_by_age = {0.02, 0.04, 0.08, 0.1, 0.2, 0.3};
  CHECK(t.mask_density_at_age(40, 0) == 0.0);
  CHECK(t.mask_density_at_age(40, 1) == 0.02);
  CHECK(t.mask_density_at_age(40, 3) == Approx(0.06));    // halfway from d2 0.04 to d4 0.08
  CHECK(t.mask_density_at_age(40, 6) == Approx(0.09));    // halfway from d4 0.08 to d8 0.1
  CHECK(t.mask_density_at_age(40, 20) == Approx(0.225));  // 0.2 + (0.3 - 0.2) * 4 / 16
  CHECK(t.mask_density_at_age(40, 40) == 0.3);            // beyond 32: d32's value
}

TEST_CASE("mask density by age uses the largest d the frame has, and 0 for frame 0") {
  auto t = frames(6);
  // Frame 5 has d = 1, 2, 4; a d8 value in a hand-built trace is ignored (frame 5 < 8).
  t.frames[5].mask_by_age = {0.1, 0.2, 0.4, 0.9, std::nan(""), std::nan("")};
  CHECK(t.mask_density_at_age(5, 3) == Approx(0.3));  // halfway from d2 0.2 to d4 0.4
  CHECK(t.mask_density_at_age(5, 5) == 0.4);          // beyond d4: d4's value
  CHECK(t.mask_density_at_age(5, 7) == 0.4);
  CHECK(t.mask_density_at_age(0, 3) == 0.0);
  // Frame 1 has only d1: age 1 is d1 itself, older ages clamp to it.
  t.frames[1].mask_by_age[0] = 0.05;
  CHECK(t.mask_density_at_age(1, 1) == 0.05);
  CHECK(t.mask_density_at_age(1, 4) == 0.05);
}
