// CSV data files read by column name (sim/scenario/csv_table.hpp): the table's shape, the header's
// lookups and each cell's checks, every error naming the file, the line and the column.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/core/error.hpp"
#include "sim/scenario/csv_table.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

const std::string kFile = "f.csv";

// The message of the InputError that `f` throws.
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("no InputError");
  return {};
}

}  // namespace

TEST_CASE("csv table: the header and every row under it") {
  const auto t = parse_csv_table("a,b\n1,2\n3,4\n", "f.csv", "frames");
  CHECK(t.header.cells == std::vector<std::string>{"a", "b"});
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[1].line == 3);
  CHECK(t.rows[1].cells[0] == "3");
}

TEST_CASE("csv table: an empty text, a row of another width and a header alone are errors") {
  CHECK_THAT(error_of([] { parse_csv_table("", "f.csv", "frames"); }),
             Contains("f.csv") && Contains("header line"));
  CHECK_THAT(error_of([] { parse_csv_table("a,b\n1,2\n3\n", "f.csv", "frames"); }),
             Contains("line 3") && Contains("expected 2 cells (as in the header), got 1"));
  CHECK_THAT(error_of([] { parse_csv_table("a,b\n", "f.csv", "rows"); }),
             Contains("no rows after the header line"));
}

TEST_CASE("csv header: columns by name, a missing one and one named twice are errors") {
  const auto t = parse_csv_table("x,y\n1,2\n", "f.csv", "frames");
  const CsvHeader h(t.header, "f.csv");
  CHECK(h.required("y") == 1);
  CHECK(h.optional("x") == std::optional<std::size_t>(0));
  CHECK_FALSE(h.optional("z"));
  CHECK_THAT(error_of([&] { h.required("z"); }), Contains("line 1") && Contains("missing column 'z'"));
  const auto twice = parse_csv_table("x,x\n1,2\n", "f.csv", "frames");
  CHECK_THAT(error_of([&] { CsvHeader(twice.header, "f.csv"); }), Contains("column 'x' appears twice"));
}

TEST_CASE("csv cells: numbers, integers and flags within their ranges, errors naming line and column") {
  const auto t = parse_csv_table("n,i,f,e\n0.5,7,1,\n", "f.csv", "frames");
  const CsvCells r(t.rows[0], t.header, kFile);
  CHECK(r.number(0, 0, 1, "a share") == 0.5);
  CHECK(r.integer(1, 1, "a count") == 7);
  CHECK(r.flag(2));
  CHECK(std::isnan(r.number_or_nan(3, 0, 1, "a share")));
  CHECK_THAT(error_of([&] { r.number(0, 0.5, 1, "a share above 0.5", true); }),
             Contains("f.csv") && Contains("line 2") &&
                 Contains("column 'n': expected a share above 0.5, got '0.5'"));
  CHECK_THAT(error_of([&] { r.integer(1, 0, "at most 6", 6); }),
             Contains("column 'i': expected at most 6, got '7'"));
  CHECK_THAT(error_of([&] { r.flag(1); }), Contains("column 'i': expected 0 or 1, got '7'"));
  CHECK_THAT(error_of([&] { r.number(3, 0, 1, "a share"); }), Contains("column 'e'"));
}

TEST_CASE("csv cells: a negative or fractional integer is an error") {
  const auto t = parse_csv_table("i,j\n-1,2.5\n", "f.csv", "frames");
  const CsvCells r(t.rows[0], t.header, kFile);
  CHECK_THAT(error_of([&] { r.integer(0, 0, "an integer >= 0"); }), Contains("got '-1'"));
  CHECK_THAT(error_of([&] { r.integer(1, 0, "an integer >= 0"); }), Contains("got '2.5'"));
}

TEST_CASE("read_data_file names a missing file and a folder") {
  const test::ScratchDir dir;
  CHECK(read_data_file(dir.write("t.csv", "a\n1\n"), "a trace") == "a\n1\n");
  CHECK_THAT(error_of([&] { read_data_file(dir.path() + "/none.csv", "a trace"); }),
             Contains("none.csv") && Contains("file not found"));
  CHECK_THAT(error_of([&] { read_data_file(dir.path(), "a trace"); }),
             Contains("is a directory, expected a trace"));
}
