// Reading per-layer profiles: the csv and tflite-csv layouts, format names, files, and every bad
// input answered with the file, the line and what was expected. The torch traces are in
// torch_trace_test.cpp.
#include <cmath>
#include <string>

#include <catch2/catch.hpp>

#include "sim/calibration/profile_import.hpp"
#include "sim/core/error.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/sim/calibration/profile_test_support.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

const std::string& kFixtures = test::kProfileFixtures;

InputError parse_error(const std::string& text, ProfileFormat format) {
  return test::profile_error(text, format);
}

}  // namespace

TEST_CASE("format names round-trip and an unknown name is none") {
  for (const std::string& name : profile_format_names()) {
    const auto format = profile_format_from_name(name);
    REQUIRE(format);
    CHECK(profile_format_name(*format) == name);
  }
  CHECK(profile_format_names() == std::vector<std::string>{"csv", "torch-trace", "tflite-csv"});
  CHECK_FALSE(profile_format_from_name("tflite"));
}

TEST_CASE("csv: rows after a comment, with a quoted name holding a comma") {
  // layers.csv: line 1 a comment, line 2 the header, lines 3-7 the rows
  const Profile p = read_profile(kFixtures + "layers.csv", ProfileFormat::Csv);
  REQUIRE(p.rows.size() == 5);
  CHECK(p.format == ProfileFormat::Csv);
  CHECK(p.rows[0].name == "conv1");
  CHECK(p.rows[0].ms == 0.158);
  CHECK(p.rows[0].line == 3);
  CHECK(p.rows[0].op_type.empty());
  CHECK(p.rows[3].name == "conv2, 3x3");  // "conv2, 3x3" unquoted
  CHECK(p.rows[3].ms == 0.031);
  CHECK(p.rows[4].name == "fc");
  CHECK(p.rows[4].line == 7);
}

TEST_CASE("read_profile records the path and the SHA-256 of the file's bytes") {
  // reference: sha256sum tests/fixtures/profiles/layers.csv
  const std::string path = kFixtures + "layers.csv";
  const Profile p = read_profile(path, ProfileFormat::Csv);
  CHECK(p.file == path);
  CHECK(p.sha256 == "e7261c9a2c2ecb99179e490967b5a96f1fb43a5993218a9227ded256abfb6709");
}

TEST_CASE("csv: CRLF line ends and spaces around fields are accepted") {
  const Profile p = parse_profile("layer, ms\r\nconv1 , 2.5\r\n\r\nfc,0.5\r\n", "p.csv", ProfileFormat::Csv);
  REQUIRE(p.rows.size() == 2);
  CHECK(p.rows[0].name == "conv1");
  CHECK(p.rows[0].ms == 2.5);
  CHECK(p.rows[1].line == 4);  // the blank line 3 is skipped, not renumbered
}

TEST_CASE("csv: a quote inside a quoted name is written twice") {
  const Profile p = parse_profile("layer,ms\n\"a \"\"b\"\", c\",1\n", "p.csv", ProfileFormat::Csv);
  REQUIRE(p.rows.size() == 1);
  CHECK(p.rows[0].name == "a \"b\", c");
}

TEST_CASE("csv: a header other than layer,ms names the line and the expected header") {
  for (const std::string header : {"name,ms", "ms,layer", "layer,ms,extra", "conv1,2.0"}) {
    INFO(header);
    const InputError e = parse_error("# profile\n" + header + "\nconv1,2.0\n", ProfileFormat::Csv);
    CHECK(e.file() == "p.txt");
    CHECK(e.path() == "line 2");
    CHECK_THAT(e.message(), Contains("expected 'layer,ms'"));
  }
}

TEST_CASE("csv: a time that is not a number names its line") {
  const InputError e = parse_error("layer,ms\nconv1,2.0\nfc,2.0ms\n", ProfileFormat::Csv);
  CHECK(e.path() == "line 3");
  CHECK_THAT(e.message(), Contains("'2.0ms'") && Contains("expected a number of milliseconds"));
}

TEST_CASE("csv: a time of zero, below zero or not finite is refused") {
  for (const std::string ms : {"0", "-1.5", "inf", "nan", "1e400"}) {
    INFO(ms);
    const InputError e = parse_error("layer,ms\nconv1," + ms + "\n", ProfileFormat::Csv);
    CHECK(e.path() == "line 2");
    CHECK_THAT(e.message(), Contains(ms));
  }
}

TEST_CASE("csv: a row with other than two fields names its line") {
  const InputError e = parse_error("layer,ms\nconv1,2.0,3.0\n", ProfileFormat::Csv);
  CHECK(e.path() == "line 2");
  CHECK_THAT(e.message(), Contains("3 fields: expected 2"));
}

TEST_CASE("csv: a quote left open names its line") {
  const InputError e = parse_error("layer,ms\n\"conv1,2.0\n", ProfileFormat::Csv);
  CHECK(e.path() == "line 2");
  CHECK_THAT(e.message(), Contains("quote not closed"));
}

TEST_CASE("csv: a layer given twice names both lines") {
  const InputError e = parse_error("layer,ms\nconv1,2.0\nfc,1.0\nconv1,3.0\n", ProfileFormat::Csv);
  CHECK(e.path() == "line 4");
  CHECK_THAT(e.message(), Contains("'conv1'") && Contains("line 2"));
}

TEST_CASE("csv: a file with a header and no rows, or nothing at all, is an empty profile") {
  CHECK_THAT(parse_error("layer,ms\n", ProfileFormat::Csv).message(), Contains("empty profile"));
  CHECK_THAT(parse_error("# only a comment\n\n", ProfileFormat::Csv).message(), Contains("empty profile"));
  CHECK_THAT(parse_error("", ProfileFormat::Csv).message(), Contains("empty profile"));
}

TEST_CASE("read_profile on a missing file names the file") {
  const std::string path = (test::scratch_dir() / "absent.csv").string();
  try {
    read_profile(path, ProfileFormat::Csv);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    CHECK_THAT(e.message(), Contains("cannot open"));
  }
}

TEST_CASE("read_profile on a folder names it and says a profile file was expected") {
  const std::string path = test::scratch_dir().string();
  try {
    read_profile(path, ProfileFormat::TorchTrace);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    CHECK_THAT(e.message(), Contains("is a directory") && Contains("torch-trace"));
  }
}

TEST_CASE("tflite-csv: the rows are the regular runs' Run Order nodes, not the initialization's") {
  // The file's initialization section lists ModifyGraphWithDelegate and AllocateTensors (lines
  // 2-5); the regular-runs section's Run Order table is lines 25-32, its 7 nodes on lines 26-32.
  const Profile p = read_profile(kFixtures + "tflite_run_order.csv", ProfileFormat::TfliteCsv);
  REQUIRE(p.rows.size() == 7);
  CHECK(p.rows[0].op_type == "CONV_2D");
  CHECK(p.rows[0].name == "[sequential/conv2d/Relu;sequential/conv2d/BiasAdd;sequential/conv2d/Conv2D]:0");
  CHECK(p.rows[0].ms == 0.15236);  // the avg_ms column, not first (0.184)
  CHECK(p.rows[0].line == 26);
  CHECK(p.rows[4].op_type == "RESHAPE");
  CHECK(p.rows[4].ms == 0.00212);
  CHECK(p.rows[6].name == "[StatefulPartitionedCall:0]:6");
  CHECK(p.rows[6].line == 32);
}

namespace {

// A regular-runs section with one node row `row` (header: the CSV formatter's).
std::string tflite_text(const std::string& row) {
  return "Operator-wise Profiling Info for Regular Benchmark Runs:\n"
         "============================== Run Order ==============================\n"
         "node type, start, first, avg_ms, %, cdf%, mem KB, times called, name\n" +
         row + "\n\n";
}

}  // namespace

TEST_CASE("tflite-csv: a node name holding ', ' stays whole") {
  // a delegate node is named after the tensors it covers: "[a, b]:71" is one name, the last column
  const Profile p = parse_profile(tflite_text("TfLiteNnapiDelegate, 0, 11.665, 11.422, 100%, 100%, 0, 1, "
                                              "[conv/add_fold, aspp0/Relu]:71"),
                                  "p.csv", ProfileFormat::TfliteCsv);
  REQUIRE(p.rows.size() == 1);
  CHECK(p.rows[0].name == "[conv/add_fold, aspp0/Relu]:71");
  CHECK(p.rows[0].op_type == "TfLiteNnapiDelegate");
  CHECK(p.rows[0].ms == 11.422);
}

TEST_CASE("tflite-csv: a file without the regular-runs section says what it expected") {
  const InputError e = parse_error("layer,ms\nconv1,2.0\n", ProfileFormat::TfliteCsv);
  CHECK(e.file() == "p.txt");
  CHECK_THAT(e.message(), Contains("Operator-wise Profiling Info for Regular Benchmark Runs:") &&
                              Contains("--enable_op_profiling=true"));
}

TEST_CASE("tflite-csv: the console table layout is refused at its header line") {
  // benchmark_model's log prints the tab-aligned table; the CSV file is what we read
  std::string text = tflite_text("CONV_2D, 0, 1, 1, 100%, 100%, 0, 1, c");
  text.replace(text.find("node type, start"),
               std::string("node type, start, first, avg_ms, %, cdf%, mem KB, times called, name").size(),
               "\t[node type]\t[start]\t[first]\t[avg ms]\t[%]\t[cdf%]\t[mem KB]\t[times called]\t[Name]");
  const InputError e = parse_error(text, ProfileFormat::TfliteCsv);
  CHECK(e.path() == "line 3");
  CHECK_THAT(e.message(), Contains("expected 'node type, start, first, avg_ms"));
}

TEST_CASE("tflite-csv: a node with a bad or zero avg_ms names its line") {
  CHECK(parse_error(tflite_text("CONV_2D, 0, 1, x, 100%, 100%, 0, 1, c"), ProfileFormat::TfliteCsv).path() ==
        "line 4");
  const InputError zero =
      parse_error(tflite_text("RESHAPE, 0, 0, 0, 0%, 100%, 0, 1, r"), ProfileFormat::TfliteCsv);
  CHECK(zero.path() == "line 4");
  CHECK_THAT(zero.message(), Contains("avg_ms 0") && Contains("> 0"));
}

TEST_CASE("tflite-csv: a node line with too few fields names its line") {
  const InputError e = parse_error(tflite_text("CONV_2D, 0, 1, 2, 100%"), ProfileFormat::TfliteCsv);
  CHECK(e.path() == "line 4");
  CHECK_THAT(e.message(), Contains("5 fields: expected 9"));
}

TEST_CASE("tflite-csv: a Run Order table without nodes is an empty profile") {
  const InputError e = parse_error(tflite_text(""), ProfileFormat::TfliteCsv);
  CHECK(e.path() == "line 3");
  CHECK_THAT(e.message(), Contains("empty profile"));
}
