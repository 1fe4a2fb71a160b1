// The results CSV: quoting, atomic appends, resume after a partial row, merge of shards.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

std::string fresh_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("coinfer_csv_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto p = dir / name;
  std::filesystem::remove(p);
  return p.string();
}

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

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

TEST_CASE("merging shards sorts rows by run and keeps duplicates once") {
  const auto a = fresh_path("a.csv"), b = fresh_path("b.csv"), out = fresh_path("merged.csv");
  std::ofstream(a) << "run,x\n0,a\n2,c\n";
  std::ofstream(b) << "run,x\n1,b\n2,c\n";
  CHECK(merge_results({a, b}, out) == 3);
  CHECK(slurp(out) == "run,x\n0,a\n1,b\n2,c\n");
}

TEST_CASE("merging files with different headers is refused") {
  const auto a = fresh_path("ha.csv"), b = fresh_path("hb.csv");
  std::ofstream(a) << "run,x\n";
  std::ofstream(b) << "run,y\n";
  CHECK_THROWS_WITH(merge_results({a, b}, fresh_path("m.csv")), Contains("header differs"));
}
