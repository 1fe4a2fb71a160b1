// `coinfer make-trace video|pan`: reproducible CSVs, the shipped MobiEye pan, and one-line errors (exit 2).
#include <catch2/catch.hpp>

#include "tests/cli/cli_runner.hpp"
#include "tests/sim/video/still_image.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const std::string kChina = coinfer::test::kChinaJpg;

// The command of docs/guide/video-traces.md that wrote examples/mobieye/pan-china.csv, minus its output.
const std::string kExampleArgs =
    "make-trace pan " + kChina + " --size 320x240,640x480,1280x960 --speeds 60:0,60:1,60:3,60:0,60:6:2";

// The first `n` lines of `text`.
std::string head(const std::string& text, int n) {
  std::size_t end = 0;
  for (int i = 0; i < n && end != std::string::npos; ++i) end = text.find('\n', end + 1);
  return text.substr(0, end == std::string::npos ? text.size() : end + 1);
}

void require_one_line_error(const CliResult& r, const std::string& expected) {
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains(expected));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("make-trace pan writes the same bytes twice") {
  SKIP_WITHOUT_CHINA_JPG();
  const auto a = scratch_dir() / "a.csv", b = scratch_dir() / "b.csv";
  const std::string args =
      "make-trace pan " + kChina + " --speeds 5:0,5:2:1 --gop 4 --size 320x240,160x120 -o ";
  const auto r = run_cli(args + a.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("10 frames (7 P), GoP 4, crf 23"));  // I frames 0, 4, 8
  REQUIRE(run_cli(args + b.string()).exit_code == 0);
  CHECK(read_text(a) == read_text(b));
}

TEST_CASE("make-trace pan takes --size repeated or comma-separated, before or after the image") {
  SKIP_WITHOUT_CHINA_JPG();
  const auto a = scratch_dir() / "a.csv", b = scratch_dir() / "b.csv";
  REQUIRE(run_cli("make-trace pan --size 160x120 --size 64x48 " + kChina + " --frames 2 -o " + a.string())
              .exit_code == 0);
  REQUIRE(
      run_cli("make-trace pan " + kChina + " --size 160x120,64x48 --frames 2 -o " + b.string()).exit_code ==
      0);
  CHECK(read_text(a).starts_with("frame,type,"));
  CHECK_THAT(read_text(a), Contains(",bytes_160x120,bytes_64x48\n"));
  CHECK(read_text(a) == read_text(b));
}

TEST_CASE("make-trace video reads an image as a one-frame clip") {
  SKIP_WITHOUT_CHINA_JPG();
  const auto out = scratch_dir() / "v.csv";
  const auto r = run_cli("make-trace video " + kChina + " --size 320x240 -o " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto text = read_text(out);
  CHECK(std::count(text.begin(), text.end(), '\n') == 2);  // header + frame 0
  CHECK_THAT(text, Contains("\n0,I,0.0000,0,"));
}

TEST_CASE("the shipped MobiEye pan starts as its documented command writes it") {
  SKIP_WITHOUT_CHINA_JPG();
  // The whole file takes seconds to encode at 1280x960, so 40 frames are made. x264's rate control looks
  // 10 frames ahead (rc-lookahead of the veryfast preset), so frames 0..29 of a 40-frame run see the same
  // future as in the full run and come out the same; the analysis of frame i uses frames <= i only.
  const auto out = scratch_dir() / "pan.csv";
  const auto r = run_cli(kExampleArgs + " --frames 40 -o " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto shipped =
      read_text(std::filesystem::path(COINFER_SOURCE_DIR) / "examples/mobieye/pan-china.csv");
  CHECK(std::count(shipped.begin(), shipped.end(), '\n') == 301);  // header + 300 frames
  CHECK(head(read_text(out), 31) == head(shipped, 31));            // header + frames 0..29
}

TEST_CASE("make-trace video refuses a file that is not video, naming it") {
  const auto txt = write_text("notes.txt", "not a video\n");
  require_one_line_error(
      run_cli("make-trace video " + txt.string() + " -o " + (scratch_dir() / "x.csv").string()),
      txt.string() + ": expected a video clip or an image FFmpeg can decode");
}

TEST_CASE("make-trace video refuses --gop 0") {
  require_one_line_error(run_cli("make-trace video " + kChina + " --gop 0 -o x.csv"),
                         "--gop: expected an integer >= 1");
}

TEST_CASE("make-trace video refuses a bad --size") {
  require_one_line_error(run_cli("make-trace video " + kChina + " --size 640by480 -o x.csv"),
                         "--size: expected WIDTHxHEIGHT, each an even integer in [16, 8192], got '640by480'");
}

TEST_CASE("make-trace pan refuses a malformed --speeds segment and a pan without a length") {
  SKIP_WITHOUT_CHINA_JPG();
  require_one_line_error(run_cli("make-trace pan " + kChina + " --speeds 10:1,0:2 -o x.csv"),
                         "--speeds: expected FRAMES:DX[:DY] with FRAMES an integer >= 1, got '0:2'");
  require_one_line_error(run_cli("make-trace pan " + kChina + " --dx 2 -o x.csv"),
                         "--frames: expected --frames N (or --speeds segments)");
}

TEST_CASE("make-trace video refuses --crf together with --bitrate-kbps") {
  const auto r = run_cli("make-trace video " + kChina + " --crf 20 --bitrate-kbps 500 -o x.csv");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, StartsWith("coinfer: error: --crf excludes --bitrate-kbps"));
}
