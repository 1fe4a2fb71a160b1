// The per-frame trace reader (schedulers/cbo/frame_trace.hpp): columns, resolutions, errors
// naming the file, the line and the column.
#include "schedulers/cbo/frame_trace.hpp"

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"

namespace cbo = coinfer::cbo;
using Catch::Matchers::Contains;
using coinfer::InputError;

TEST_CASE("a full trace gives every column, resolutions sorted by pixels") {
  const auto trace = cbo::parse_frame_trace(
      "video,frame,confidence,correct,size_bytes_224,server_correct_224,size_bytes_90,server_correct_90,"
      "note\n"
      "v1,0,0.9,1,9000,1,2000,0,x\r\n"
      "v1,1,0,0,8000,0,1500,1,y\n",
      "t.csv");
  CHECK(trace.resolutions_px == std::vector<int>{90, 224});
  REQUIRE(trace.frames.size() == 2);
  const auto& f = trace.frames[1];
  CHECK(f.video == "v1");
  CHECK(f.index == 1);
  CHECK(f.confidence == 0.0);
  CHECK_FALSE(f.correct);
  CHECK(f.size_bytes == std::vector<double>{1500, 8000});
  CHECK(f.server_correct == std::vector<char>{1, 0});
  CHECK(f.line == 3);
  const auto local = trace.local();
  CHECK(local.confidence == std::vector<double>{0.9, 0.0});
  CHECK(local.correct == std::vector<char>{1, 0});
}

TEST_CASE("a trace needs only confidence and correct") {
  const auto trace = cbo::parse_frame_trace("correct,confidence\n1,1\n", "t.csv");
  CHECK(trace.resolutions_px.empty());
  CHECK(trace.frames[0].index == -1);
  CHECK(trace.frames[0].confidence == 1.0);
}

TEST_CASE("trace errors name the file, the line and the column") {
  auto error = [](const std::string& text) {
    try {
      cbo::parse_frame_trace(text, "t.csv");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error("") == "t.csv: empty file, expected a header line");
  CHECK(error("confidence,correct\n") == "t.csv: no frames after the header line");
  CHECK(error("confidence\n0.5\n") == "t.csv: line 1: missing column 'correct'");
  CHECK(error("confidence,correct,confidence\n0.5,1,0.5\n") ==
        "t.csv: line 1: column 'confidence' appears twice");
  CHECK(error("confidence,correct\n0.5,1\n0.5\n") ==
        "t.csv: line 3: expected 2 cells (as in the header), got 1");
  CHECK(error("confidence,correct\n1.5,1\n") ==
        "t.csv: line 2: column 'confidence': expected a number in [0, 1], got '1.5'");
  CHECK(error("confidence,correct\nnan,1\n") ==
        "t.csv: line 2: column 'confidence': expected a number in [0, 1], got 'nan'");
  CHECK(error("confidence,correct\n0.5,yes\n") ==
        "t.csv: line 2: column 'correct': expected 0 or 1, got 'yes'");
  CHECK(error("frame,confidence,correct\n-1,0.5,1\n") ==
        "t.csv: line 2: column 'frame': expected an integer >= 0, got '-1'");
  CHECK(error("confidence,correct,size_bytes_90\n0.5,1,10\n") ==
        "t.csv: line 1: column 'size_bytes_90' has no matching 'server_correct_90'");
  CHECK(error("confidence,correct,server_correct_90\n0.5,1,1\n") ==
        "t.csv: line 1: column 'server_correct_90' has no matching 'size_bytes_90'");
  CHECK(error("confidence,correct,size_bytes_90,server_correct_90\n0.5,1,0,1\n") ==
        "t.csv: line 2: column 'size_bytes_90': expected a number of bytes > 0, got '0'");
  CHECK(error("confidence,correct,size_bytes_90,size_bytes_090,server_correct_90\n0.5,1,1,1,1\n") ==
        "t.csv: line 1: two size_bytes_ columns name resolution 90");
}

TEST_CASE("a missing trace file is an input error naming it") {
  CHECK_THROWS_WITH(cbo::read_frame_trace("/nonexistent/t.csv"),
                    Contains("/nonexistent/t.csv: file not found"));
}

TEST_CASE("a trace's feature vector: label and score columns, read and written back") {
  const auto trace = cbo::parse_frame_trace(
      "confidence,correct,score_1,label,score_0,score_2\n0.6,0,0.5,2,1.25,-3\n0.7,1,2,1,0,0.5\n", "t.csv");
  CHECK(trace.classes == 3);
  CHECK(trace.frames[0].label == 2);
  CHECK(trace.frames[0].scores == std::vector<double>{1.25, 0.5, -3});
  const auto local = trace.local();
  REQUIRE(local.has_feature_vectors());
  CHECK(local.labels == std::vector<std::int64_t>{2, 1});
  CHECK(local.scores[1] == std::vector<double>{0, 2, 0.5});
  auto with_index = trace;
  for (auto& f : with_index.frames) f.index = 0;
  const auto again = cbo::parse_frame_trace(cbo::format_frame_trace(with_index), "t.csv");
  CHECK(again.classes == 3);
  CHECK(again.frames[1].scores == trace.frames[1].scores);
  CHECK(again.frames[0].label == 2);
}

TEST_CASE("a trace without a feature vector has none, and platt-vector asks for one") {
  const auto trace = cbo::parse_frame_trace("confidence,correct\n0.5,1\n", "t.csv");
  CHECK(trace.classes == 0);
  CHECK_FALSE(trace.local().has_feature_vectors());
  CHECK_THROWS_WITH(cbo::require_feature_vectors(trace, "t.csv", "platt-vector"),
                    Contains("t.csv") && Contains("line 1") && Contains("score_0"));
}
