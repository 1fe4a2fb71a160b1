// The digits reader and the seeded split.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include "sim/core/error.hpp"
#include "sim/functional/dataset.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;

namespace {

std::string scratch_file(const std::string& name, const std::string& text) {
  const auto path = test::scratch_dir() / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

// scikit-learn documents the digits as 1797 images of 8x8 pixels in 0..16, 10 classes of about 180
// (load_digits: 178 zeros; the counts are those of sklearn.datasets.load_digits().target).
TEST_CASE("the digits that python3-sklearn ships load as 1797 samples of 1x8x8") {
  const auto path = default_digits_path();
  INFO("the digits dataset is missing: install python3-sklearn (scripts/install-deps.sh)");
  REQUIRE(std::filesystem::exists(path));
  const Dataset d = load_digits(path);
  CHECK(d.size() == 1797);
  CHECK(d.classes == 10);
  CHECK(d.sample_shape == Shape{1, 8, 8});
  std::vector<int> counts(10, 0);
  for (auto l : d.labels) ++counts.at(static_cast<std::size_t>(l));
  CHECK(counts == std::vector<int>{178, 182, 177, 183, 181, 182, 181, 179, 174, 180});
  // First row: 0,0,5,13,9,1,0,0,... label 0; pixels are value / 16.
  CHECK(d.labels[0] == 0);
  CHECK(d.samples[0].data[2] == 5.0f / 16);
  CHECK(d.samples[0].data[3] == 13.0f / 16);
}

TEST_CASE("a missing digits file says which package provides it") {
  CHECK_THROWS_WITH(load_digits("/nonexistent/digits.csv.gz"),
                    Catch::Contains("/nonexistent/digits.csv.gz") && Catch::Contains("python3-sklearn"));
}

TEST_CASE("a malformed digits row is reported with its line") {
  std::string good;
  for (int i = 0; i < 64; ++i) good += "1,";
  const auto short_row = scratch_file("coinfer_digits_short.csv", good + "3\n1,2,3\n");
  CHECK_THROWS_WITH(load_digits(short_row), Catch::Contains("line 2") && Catch::Contains("got 3 values"));
  const auto bad_label = scratch_file("coinfer_digits_label.csv", good + "12\n");
  CHECK_THROWS_WITH(load_digits(bad_label), Catch::Contains("line 1") && Catch::Contains("label 12"));
  const auto text = scratch_file("coinfer_digits_text.csv", good + "x\n");
  CHECK_THROWS_WITH(load_digits(text), Catch::Contains("value 65: expected an integer, got 'x'"));
}

TEST_CASE("the split is seeded, disjoint and holds round(n * fraction) test samples") {
  // 1797 * 0.2 = 359.4 -> 359 test, 1438 train.
  const DatasetSplit a = split_dataset(1797, 0.2, 4), b = split_dataset(1797, 0.2, 4);
  CHECK(a.test == b.test);
  CHECK(a.train == b.train);
  CHECK(a.test.size() == 359);
  CHECK(a.train.size() == 1438);
  std::set<std::size_t> all(a.test.begin(), a.test.end());
  all.insert(a.train.begin(), a.train.end());
  CHECK(all.size() == 1797);
  CHECK(split_dataset(1797, 0.2, 5).test != a.test);
  CHECK_THROWS_AS(split_dataset(1797, 1.0, 4), InputError);
  CHECK_THROWS_AS(split_dataset(3, 0.1, 4), InputError);  // round(0.3) = 0 test samples
}

TEST_CASE("resized samples keep their labels and a constant image stays constant") {
  // Bilinear interpolation of a constant image is that constant; of a two-valued one, between them.
  Dataset d{"mem", {1, 8, 8}, 10, {Tensor({1, 8, 8}, 0.25f), Tensor({1, 8, 8})}, {3, 7}};
  for (std::size_t i = 0; i < 32; ++i) d.samples[1].data[i] = 1.0f;  // top half 1, bottom half 0
  const Dataset r = resized(d, 28, 28);
  CHECK(r.sample_shape == Shape{1, 28, 28});
  CHECK(r.labels == d.labels);
  REQUIRE(r.size() == 2);
  CHECK(r.samples[0].shape == Shape{1, 28, 28});
  for (float v : r.samples[0].data) CHECK(v == Approx(0.25f));
  for (float v : r.samples[1].data) CHECK((v >= 0.0f && v <= 1.0f));
  CHECK(r.samples[1].data.front() == Approx(1.0f));
  CHECK(r.samples[1].data.back() == Approx(0.0f));
  CHECK_THROWS_WITH(resized(d, 0, 28), Catch::Contains("resize") && Catch::Contains("sizes >= 1"));
  Dataset flat{"mem", {64}, 10, {Tensor({64})}, {0}};
  CHECK_THROWS_WITH(resized(flat, 28, 28), Catch::Contains("(C, H, W)"));
}

TEST_CASE("a resize whose samples would not fit the memory limit is refused before allocating") {
  // 2 samples of 1 channel at N x N floats take 8 N^2 bytes: under a 1e6-byte limit N <= 353
  // (8 x 353^2 = 996,872; 8 x 354^2 = 1,002,528), and 100000 x 100000 would need 8e10 bytes.
  Dataset d{"mem", {1, 8, 8}, 10, {Tensor({1, 8, 8}), Tensor({1, 8, 8})}, {3, 7}};
  CHECK_THROWS_WITH(
      resized(d, 100000, 100000, 1'000'000),
      Catch::Contains("expected at most 353 (the largest N x N for which the 2 samples of mem") &&
          Catch::Contains("got 100000x100000, which needs 8e+10 bytes"));
  CHECK_THROWS_AS(resized(d, 354, 354, 1'000'000), InputError);
  CHECK(resized(d, 353, 353, 1'000'000).sample_shape == Shape{1, 353, 353});
}
