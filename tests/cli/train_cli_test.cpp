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

TEST_CASE("coinfer train --workers --quantizer prints the split and the message size, byte for byte") {
  // 4 workers share the minibatch of 32 (8 each); digits_mlp's 1-bit message: fc1 (64, 64) 512 bytes of
  // bits + 64 columns x 8 = 1,024; bias 8 + 8; fc2 (10, 64) 80 + 512; bias 2 + 8: 1,642 bytes against
  // 4,810 x 4 = 19,240 in fp32, 11.7x.
  const std::string args = "train digits_mlp --epochs 2 --seed 3 --workers 4 --quantizer onebit";
  const auto a = run_cli(args);
  INFO(a.err);
  REQUIRE(a.exit_code == 0);
  CHECK_THAT(a.out, Contains("workers 4 on disjoint shards, local minibatches 8, 8, 8, 8 of 32; quantizer "
                             "onebit: 1,642 bytes per gradient message (11.7x smaller than fp32's 19,240)"));
  CHECK(std::count(a.out.begin(), a.out.end(), '\n') == 5 + 2);
  CHECK(run_cli(args).out == a.out);
  CHECK(run_cli("train digits_mlp --epochs 2 --seed 3 --workers 4 --quantizer terngrad").out != a.out);
}

TEST_CASE("coinfer train --resize 28 trains an MNIST network on the upscaled digits") {
  const auto r = run_cli("train mxnet_mlp --epochs 1 --seed 1 --resize 28");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("model mxnet_mlp: 8 layers, 109,386 parameters") &&
                        Contains("1797 samples [1,28,28], 10 classes"));
}

TEST_CASE("coinfer train --data fashion-mnist trains on the first training images, tests on t10k, repeats") {
  const std::string args =
      "train mxnet_mlp --data fashion-mnist --train-samples 500 --epochs 1 --batch 32 --lr 0.1 --momentum 0";
  const auto r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out,
             Contains("data /usr/share/datasets/fashion-mnist: 10500 samples [1,28,28], 10 classes; 500 "
                      "train, 10000 test (official split: the first 500 training images, all test images)") &&
                 Contains("/10000)"));
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 4 + 1);
  CHECK(run_cli(args).out == r.out);  // the same seed, byte for byte
}

TEST_CASE("coinfer train --train-samples keeps the first samples of the digits' training part") {
  const auto r = run_cli("train digits_mlp --epochs 1 --train-samples 100");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out,
             Contains("1797 samples [1,8,8], 10 classes; 100 train, 359 test (fraction 0.2, seed 1, the "
                      "first 100 of the training part)"));
}

TEST_CASE("coinfer train --tail drop and merge print the epoch's steps, keep prints nothing more") {
  // 1438 training digits in steps of 50: 28 full steps (1400) and 38 left, which drop leaves for a later
  // epoch and merge adds to the last step (50 + 38 = 88).
  const std::string args = "train digits_mlp --epochs 1 --seed 1 --batch 50";
  const auto keep = run_cli(args), drop = run_cli(args + " --tail drop"),
             merge = run_cli(args + " --tail merge");
  INFO(drop.err << merge.err);
  REQUIRE(drop.exit_code == 0);
  REQUIRE(merge.exit_code == 0);
  CHECK_THAT(drop.out, Contains("epoch tail drop: 28 steps of 50 samples, 38 of the 1438 training samples "
                                "wait for a later epoch"));
  CHECK_THAT(merge.out, Contains("epoch tail merge: 28 steps, the last of 88 samples"));
  CHECK(run_cli(args + " --tail keep").out == keep.out);  // keep is the default
  CHECK(keep.out.find("epoch tail") == std::string::npos);
  CHECK(drop.out != keep.out);
}

TEST_CASE("coinfer train --workers --tail drop runs steps holding every worker's full share") {
  // 1438 digits over 3 workers: shards 480, 479, 479; total 128 as 43, 43, 42: min(11, 11, 11) = 11 steps
  // of 128 = 1408, 30 left.
  const auto r = run_cli("train mxnet_mlp --resize 28 --workers 3 --batch 128 --epochs 1 --tail drop");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("epoch tail drop: 11 steps of 128 samples, 30 of the 1438 training samples"));
}

TEST_CASE("coinfer step-times prints one row per minibatch size and the least-squares line") {
  const auto r = run_cli("step-times digits_mlp --batches 1,4,16 --repeats 1");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("model digits_mlp: training step (forward, backward, SGD) on this host") &&
                        Contains("minibatch  step ms  ms per sample") && Contains("least squares:"));
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 3 + 3 + 1);  // title, header, rule; 3 rows; fit
}

TEST_CASE("coinfer step-times --per-sample times the per-sample path and compares each size with the first") {
  const auto batched = run_cli("step-times digits_mlp --batches 1,4 --repeats 1");
  const auto single = run_cli("step-times digits_mlp --batches 1,4 --repeats 1 --per-sample");
  INFO(batched.err << single.err);
  REQUIRE(batched.exit_code == 0);
  REQUIRE(single.exit_code == 0);
  CHECK_THAT(batched.out,
             Contains("conv and fc batched over the minibatch") && Contains("per sample / at 1"));
  CHECK_THAT(single.out, Contains("conv and fc sample by sample") && Contains("per sample / at 1"));
}
