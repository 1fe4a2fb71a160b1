// `coinfer train` through the binary: the per-epoch table on the real digits, and byte-identical
// output for the same seed (nothing timed is printed). Its bad inputs are in bad_inputs/train.yaml.
#include <catch2/catch.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;

TEST_CASE("coinfer train prints loss and test accuracy per epoch and repeats byte for byte") {
  const std::string args = "train digits_cnn --epochs 3 --seed 9 --batch 16 --lr 0.05";
  const auto a = run_cli(args);
  INFO(a.err);
  REQUIRE(a.exit_code == 0);
  CHECK(a.err.empty());
  CHECK_THAT(a.out, Contains("model digits_cnn: 9 layers, 4,538 parameters, weights from seed 9") &&
                        Contains("1797 samples [1,8,8], 10 classes; 1438 train, 359 test") &&
                        Contains("sgd: batch 16, learning rate 0.05, momentum 0.9, weight decay 0.0001") &&
                        Contains("epoch  train loss  test loss  test accuracy"));
  CHECK(std::count(a.out.begin(), a.out.end(), '\n') == 4 + 3);  // 4 header lines, one per epoch
  const auto b = run_cli(args);
  CHECK(b.out == a.out);
  CHECK(run_cli("train digits_cnn --epochs 3 --seed 10 --batch 16 --lr 0.05").out != a.out);
}

TEST_CASE("coinfer train reads another copy of the digits given with --data") {
  // The first 100 rows as a plain CSV: 20 test samples, 80 train.
  const auto full = run_cli("train digits_mlp --epochs 1 --seed 2");
  REQUIRE(full.exit_code == 0);
  const auto csv = scratch_dir() / "digits100.csv";
  REQUIRE(
      std::system(("zcat /usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz | head -100 > " +
                   csv.string())
                      .c_str()) == 0);
  const auto r = run_cli("train digits_mlp --epochs 1 --seed 2 --data " + csv.string());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("100 samples [1,8,8], 10 classes; 80 train, 20 test"));
}
