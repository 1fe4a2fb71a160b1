// The mAP-per-feature-age input (schedulers/mobieye/map_table.hpp): interpolation, validation with
// key paths, and the mean over frames.
#include "schedulers/mobieye/map_table.hpp"

#include <cmath>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"

namespace mobieye = coinfer::mobieye;
using Catch::Matchers::Contains;
using coinfer::InputError;

namespace {

mobieye::MapTable table_of(const std::string& json) {
  return mobieye::MapTable::from_json(coinfer::Json::parse(json), "s.yaml", "scheduler.map");
}

std::string error_of(const std::string& json) {
  try {
    table_of(json);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a mAP table interpolates linearly between ages and holds its last value beyond them") {
  const auto t = table_of(R"({"source": "ours", "by_age": [[0, 0.76], [5, 0.74], [15, 0.64]]})");
  CHECK(t.source == "ours");
  CHECK(t.at(0) == 0.76);
  CHECK(t.at(2.5) == Approx(0.75));  // halfway from 0.76 to 0.74
  CHECK(t.at(5) == Approx(0.74));
  CHECK(t.at(7) == Approx(0.72));  // 0.74 + (0.64 - 0.74) * 2 / 10
  CHECK(t.at(15) == Approx(0.64));
  CHECK(t.at(100) == 0.64);  // beyond the last row
}

TEST_CASE("a mAP table of one row is that value at every age") {
  const auto t = table_of(R"({"source": "flat", "by_age": [[0, 0.5]]})");
  CHECK(t.at(0) == 0.5);
  CHECK(t.at(40) == 0.5);
}

TEST_CASE("a mAP outside [0, 1] is an InputError naming its key path") {
  CHECK_THAT(error_of(R"({"source": "x", "by_age": [[0, 0.7], [5, 1.5]]})"),
             Contains("s.yaml: scheduler.map.by_age[1][1]: expected mAP in [0, 1], got 1.5"));
  CHECK_THAT(error_of(R"({"source": "x", "by_age": [[0, -0.1]]})"), Contains("scheduler.map.by_age[0][1]"));
}

TEST_CASE("mAP table ages that do not increase are an InputError naming the row") {
  CHECK_THAT(error_of(R"({"source": "x", "by_age": [[0, 0.7], [5, 0.6], [5, 0.5]]})"),
             Contains("scheduler.map.by_age[2][0]: expected ages strictly increasing, got 5 after 5"));
}

TEST_CASE("a mAP table must start at age 0") {
  CHECK_THAT(error_of(R"({"source": "x", "by_age": [[1, 0.7]]})"),
             Contains("scheduler.map.by_age[0][0]: expected the first age 0, got 1"));
}

TEST_CASE("an empty mAP table, or one without a source, is an InputError") {
  CHECK_THAT(error_of(R"({"source": "x", "by_age": []})"),
             Contains("scheduler.map.by_age: expected at least one [age, mAP] row"));
  CHECK_THAT(error_of(R"({"by_age": [[0, 0.7]]})"), Contains("scheduler.map.source"));
  CHECK_THAT(error_of(R"({"source": "", "by_age": [[0, 0.7]]})"), Contains("scheduler.map.source"));
}

TEST_CASE("a mAP table row that is not an [age, mAP] pair is an InputError") {
  CHECK_THAT(error_of(R"({"source": "x", "by_age": [[0, 0.7, 1]]})"),
             Contains("scheduler.map.by_age[0]: expected [age, mAP], got 3 numbers"));
}

TEST_CASE("an unknown key in a mAP table is an InputError naming it") {
  CHECK_THAT(error_of(R"({"source": "x", "by_age": [[0, 0.7]], "note": 1})"),
             Contains("scheduler.map.note: unknown key"));
}

TEST_CASE("effective mAP is the mean of the table over the frames' feature ages") {
  const auto t = table_of(R"({"source": "x", "by_age": [[0, 0.8], [10, 0.6]]})");
  // ages 0, 5, 20 -> 0.8, 0.7, 0.6 (flat beyond 10): mean 2.1 / 3 = 0.7.
  CHECK(mobieye::effective_map(t, {0, 5, 20}) == Approx(0.7));
  CHECK(std::isnan(mobieye::effective_map(t, {})));
}
