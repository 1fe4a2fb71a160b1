// The results CSV: quoting, atomic appends, resume after a partial row, merge of shards.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"
#include "tests/sim/scenario/scenario_test_support.hpp"

using namespace coinfer;
using namespace coinfer::testing;
using Catch::Matchers::Contains;

TEST_CASE("cells with commas or quotes are quoted and split back") {
  const std::vector<std::string> cells{"a", "b,c", "say \"hi\"", ""};
  const auto line = csv_line(cells);
  CHECK(line == "a,\"b,c\",\"say \"\"hi\"\"\",\n");
  CHECK(csv_split(line) == cells);
}

TEST_CASE("metric cells read nested values and sum totals") {
  const Json r = Json::parse(R"({"latency_ms": {"p95": 12.5}, "energy_j": {"a": 1.5, "b": 2}, "seed": 3})");
  CHECK(metric_cell(r, "latency_ms.p95") == "12.5");
  CHECK(metric_cell(r, "energy_j.total") == "3.5");
  CHECK(metric_cell(r, "seed") == "3");
  CHECK(metric_cell(r, "missing").empty());
}

TEST_CASE("a new results file gets the header and appended rows") {
  const auto p = fresh_path("new.csv");
  {
    ResultsCsv csv(p, {"run", "x"});
    csv.append(3, {"7"});
  }
  CHECK(slurp(p) == "run,x\n3,7\n");
}

TEST_CASE("reopening a results file knows the finished runs and drops a partial row") {
  const auto p = fresh_path("resume.csv");
  std::ofstream(p) << "run,x\n0,1\n2,5\n4,";  // killed while writing run 4
  ResultsCsv csv(p, {"run", "x"});
  CHECK(csv.done() == std::set<std::size_t>{0, 2});
  csv.append(4, {"9"});
  CHECK(slurp(p) == "run,x\n0,1\n2,5\n4,9\n");
}

TEST_CASE("reopening with a different header is refused") {
  const auto p = fresh_path("header.csv");
  std::ofstream(p) << "run,x\n";
  CHECK_THROWS_WITH(ResultsCsv(p, {"run", "y"}), Contains("different header"));
}

TEST_CASE("a cell with a newline round-trips through the file") {
  const auto p = fresh_path("newline.csv");
  {
    ResultsCsv csv(p, {"run", "description"});
    csv.append(0, {"two\nlines, and \"quotes\""});
  }
  ResultsCsv again(p, {"run", "description"});
  REQUIRE(again.rows().count(0));
  CHECK(again.rows().at(0).cells[1] == "two\nlines, and \"quotes\"");
}

TEST_CASE("a partial last row inside a quoted cell is cut off on reopening") {
  const auto p = fresh_path("partial_quoted.csv");
  std::ofstream(p) << "run,x\n0,\"a\nb\"\n1,\"c\nd";  // killed inside run 1's quoted cell
  ResultsCsv csv(p, {"run", "x"});
  CHECK(csv.done() == std::set<std::size_t>{0});
  CHECK(slurp(p) == "run,x\n0,\"a\nb\"\n");
}

TEST_CASE("a row with the wrong number of cells is reported with its line") {
  const auto p = fresh_path("cells.csv");
  std::ofstream(p) << "run,x\n0,1\n1,2,3\n";
  CHECK_THROWS_WITH(ResultsCsv(p, {"run", "x"}), Contains("line 3") && Contains("expected 2 cells, got 3"));
}

TEST_CASE("the same run twice with different cells is refused") {
  const auto p = fresh_path("twice.csv");
  std::ofstream(p) << "run,x\n0,1\n0,2\n";
  CHECK_THROWS_WITH(ResultsCsv(p, {"run", "x"}), Contains("run 0 appears twice"));
}

TEST_CASE("a results file open in one writer is refused to a second") {
  const auto p = fresh_path("locked.csv");
  ResultsCsv first(p, {"run", "x"});
  CHECK_THROWS_WITH(ResultsCsv(p, {"run", "x"}), Contains("another coinfer sweep"));
}

TEST_CASE("CRLF line ends and a last line without a newline parse") {
  const auto records = parse_csv("run,x\r\n0,\"a,b\"\r\n1,c", "f.csv");
  REQUIRE(records.size() == 3);
  CHECK(records[1].cells == std::vector<std::string>{"0", "a,b"});
  CHECK(records[2].line == 3);
  CHECK_THROWS_WITH(parse_csv("run\n\"open", "f.csv"), Contains("f.csv: line 2: unterminated"));
}
