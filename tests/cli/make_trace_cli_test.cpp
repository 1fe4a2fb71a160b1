// `coinfer make-trace digits|synthetic -o FILE`: the file is a trace calibrate-confidence reads, the
// same options write the same bytes, and the shipped synthetic example is the defaults' output.
#include <catch2/catch.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;

namespace {

const std::filesystem::path kExamples = std::filesystem::path(COINFER_SOURCE_DIR) / "examples/cbo";

}  // namespace

TEST_CASE("make-trace synthetic writes the same bytes twice, and the shipped example with the defaults") {
  const auto a = scratch_dir() / "a.csv", b = scratch_dir() / "b.csv";
  const auto r = run_cli("make-trace synthetic -o " + a.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("240 synthetic frames (4 videos x 60, seed 12)"));
  REQUIRE(run_cli("make-trace synthetic --output " + b.string()).exit_code == 0);
  CHECK(read_text(a) == read_text(b));
  CHECK(read_text(a) == read_text(kExamples / "synthetic_trace.csv"));  // examples/cbo/README.md's command
}

TEST_CASE("make-trace synthetic options reach the trace") {
  const auto out = scratch_dir() / "s.csv";
  const auto r = run_cli(
      "make-trace synthetic --videos 2 --frames-per-video 3 --resolutions 90,224 --accuracy-per-resolution "
      "0,1 "
      "--seed 4 -o " +
      out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto text = read_text(out);
  CHECK(
      text.starts_with("video,frame,confidence,correct,size_bytes_90,server_correct_90,size_bytes_224,"
                       "server_correct_224\n"));
  CHECK(std::count(text.begin(), text.end(), '\n') == 7);  // header + 2 x 3 frames
  CHECK(text.find(",1,") != std::string::npos);
  // accuracy 0 at 90 px and 1 at 224 px: every row ends ",0,<size>,1"
  std::istringstream rows(text);
  std::string line;
  std::getline(rows, line);
  while (std::getline(rows, line)) CHECK(line.ends_with(",1"));
  const auto cal = run_cli("calibrate-confidence " + out.string() + " --train-fraction 0.5");
  CHECK(cal.exit_code == 0);
}

TEST_CASE("make-trace digits prints the measured accuracies and writes a readable trace") {
  const auto out = scratch_dir() / "d.csv";
  const auto r = run_cli(
      "make-trace digits --trace-fraction 0.9 --npu-epochs 1 --server-epochs 1 --resolutions 45,90 --seed 2 "
      "-o " +
      out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("1617 frames from"));
  CHECK_THAT(r.out, Contains("180 images trained on, seed 2"));
  CHECK_THAT(r.out, Contains("npu digits_mlp, 2-bit weights: accuracy"));
  CHECK_THAT(r.out, Contains("45 px    4 px"));  // 8 x 45 / 90 pixels of detail: 90 px is full
  const auto cal = run_cli("calibrate-confidence " + out.string());
  INFO(cal.err);
  CHECK(cal.exit_code == 0);
  CHECK_THAT(cal.out, Contains("1617 frames"));
}
