// `coinfer merge`: shards back to the whole, conflicts and missing runs refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "sim/core/error.hpp"
#include "sim/scenario/sweep_manifest.hpp"
#include "sim/scenario/sweep_merge.hpp"
#include "tests/sim/scenario/scenario_test_support.hpp"

using namespace coinfer;
using namespace coinfer::testing;
using Catch::Matchers::Contains;

namespace {

// A shard CSV with the manifest of a 3-run sweep.
std::string shard(const std::string& name, const std::string& rows, const std::string& hash = "h") {
  const auto p = fresh_path(name + ".csv");
  std::ofstream(p) << "run,x\n" << rows;
  write_manifest(p, SweepManifest{"sw", "sw.yaml", 3, 1, 2, hash, {"run", "x"}});
  return p;
}

}  // namespace

TEST_CASE("merging shards sorts rows by run and keeps identical duplicates once") {
  const auto a = shard("a", "0,a\n2,c\n"), b = shard("b", "1,b\n2,c\n"), out = fresh_path("merged.csv");
  const auto m = merge_results({a, b}, out);
  CHECK(m.rows == 3);
  CHECK(slurp(out) == "run,x\n0,a\n1,b\n2,c\n");
  CHECK(read_manifest(out)->shard_count == 1);  // the merged file can be merged again
}

TEST_CASE("merging two different rows for one run is refused naming both places") {
  const auto a = shard("ca", "0,a\n1,b\n2,c\n"), b = shard("cb", "1,B\n");
  CHECK_THROWS_WITH(merge_results({a, b}, fresh_path("m1.csv")), Contains("cb.csv: line 2") &&
                                                                     Contains("run 1 conflicts with") &&
                                                                     Contains("ca.csv line 3"));
}

TEST_CASE("missing runs are listed and refused unless partial merges are allowed") {
  const auto a = shard("ma", "0,a\n"), out = fresh_path("m2.csv");
  CHECK_THROWS_WITH(merge_results({a}, out), Contains("2 of 3 runs are missing: 1, 2"));
  CHECK_FALSE(std::filesystem::exists(out));
  const auto m = merge_results({a}, out, true);
  CHECK(m.missing == std::vector<std::size_t>{1, 2});
}

TEST_CASE("results of different sweeps are not merged") {
  const auto a = shard("da", "0,a\n", "h1"), b = shard("db", "1,b\n2,c\n", "h2");
  CHECK_THROWS_WITH(merge_results({a, b}, fresh_path("m3.csv")), Contains("different sweep"));
}

TEST_CASE("an input without a manifest needs --allow-partial") {
  const auto p = fresh_path("bare.csv");
  std::ofstream(p) << "run,x\n0,a\n";
  CHECK_THROWS_WITH(merge_results({p}, fresh_path("m4.csv")), Contains("no sweep manifest"));
  CHECK_FALSE(merge_results({p}, fresh_path("m5.csv"), true).missing_known);
}

TEST_CASE("merging files with different headers is refused") {
  const auto a = fresh_path("ha.csv"), b = fresh_path("hb.csv");
  std::ofstream(a) << "run,x\n";
  std::ofstream(b) << "run,y\n";
  CHECK_THROWS_WITH(merge_results({a, b}, fresh_path("m.csv"), true), Contains("header differs"));
}
