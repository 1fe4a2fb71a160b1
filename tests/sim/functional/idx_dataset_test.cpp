// The IDX reader (MNIST's format) on small hand-written files, each bad input's error, and
// Fashion-MNIST as Debian's dataset-fashion-mnist ships it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "sim/core/error.hpp"
#include "sim/functional/idx_dataset.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;
using coinfer::test::scratch_dir;

namespace {

using Bytes = std::vector<unsigned char>;

// An IDX file of unsigned bytes: magic 0x000008NN, the sizes big-endian, then `data`.
Bytes idx(const std::vector<std::uint32_t>& dims, const Bytes& data) {
  Bytes b{0, 0, 0x08, static_cast<unsigned char>(dims.size())};
  for (auto d : dims)
    for (int shift = 24; shift >= 0; shift -= 8) b.push_back(static_cast<unsigned char>(d >> shift));
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

std::string write(const std::string& name, const Bytes& bytes) {
  const auto path = scratch_dir() / name;
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

// Three 2x2 images (pixels 0, 51, 255, ...) labelled 0, 9, 3.
const Bytes kImages = idx({3, 2, 2}, {0, 51, 102, 255, 1, 2, 3, 4, 10, 20, 30, 40});
const Bytes kLabels = idx({3}, {0, 9, 3});

// What load_idx throws for image and label files holding these bytes.
InputError error_of(const Bytes& images, const Bytes& labels) {
  const auto i = write("e-images", images), l = write("e-labels", labels);
  try {
    load_idx(i, l);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no error");
  return InputError("", "", "");
}

}  // namespace

TEST_CASE("an IDX image and label pair loads as [1, rows, cols] samples scaled to 0..1") {
  const Dataset d = load_idx(write("images", kImages), write("labels", kLabels));
  REQUIRE(d.size() == 3);
  CHECK(d.classes == 10);
  CHECK(d.sample_shape == Shape{1, 2, 2});
  CHECK(d.labels == std::vector<std::int64_t>{0, 9, 3});
  CHECK(d.samples[0].data == std::vector<float>{0.0f, 51.0f / 255, 102.0f / 255, 1.0f});
  CHECK(d.samples[2].data[3] == 40.0f / 255);
}

TEST_CASE("load_idx keeps only the first samples up to its limit") {
  const Dataset d = load_idx(write("images", kImages), write("labels", kLabels), 10, 2);
  REQUIRE(d.size() == 2);
  CHECK(d.labels == std::vector<std::int64_t>{0, 9});
  CHECK(d.samples[1].data[0] == 1.0f / 255);
}

TEST_CASE("a missing IDX file is one error naming it and the package") {
  const auto missing = (scratch_dir() / "nothere-idx3-ubyte").string();
  try {
    load_idx(missing, write("labels", kLabels), 10, 5, "dataset-fashion-mnist");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == missing);
    CHECK_THAT(e.message(), Contains("IDX file not found") && Contains("dataset-fashion-mnist"));
  }
}

TEST_CASE("an IDX file with the wrong magic number is refused in its header") {
  Bytes wrong = kImages;
  wrong[3] = 1;  // a label file's magic in place of an image file's
  const InputError e = error_of(wrong, kLabels);
  CHECK_THAT(e.file(), Contains("e-images"));
  CHECK(e.path() == "header");
  CHECK_THAT(e.message(), Contains("expected the IDX magic number 0x00000803") && Contains("got 0x00000801"));
}

TEST_CASE("label and image files of different counts are refused") {
  const InputError e = error_of(kImages, idx({2}, {0, 9}));
  CHECK_THAT(e.file(), Contains("e-labels"));
  CHECK(e.path() == "header");
  CHECK_THAT(e.message(), Contains("holds 2 labels but") && Contains("holds 3 images"));
}

TEST_CASE("an IDX image file that ends early names the image") {
  Bytes cut = kImages;
  cut.resize(cut.size() - 1);
  const InputError e = error_of(cut, kLabels);
  CHECK_THAT(e.file(), Contains("e-images"));
  CHECK_THAT(e.message(), Contains("the data ends early: image 3 of 3 needs 4 bytes, the file has 3 left"));
}

TEST_CASE("an IDX header cut short is refused") {
  const InputError e = error_of(Bytes{0, 0, 8, 3, 0, 0}, kLabels);
  CHECK_THAT(e.message(), Contains("the data ends early: the header's the size of dimension 1"));
}

TEST_CASE("an IDX file with a zero dimension is refused in its header") {
  const InputError e = error_of(idx({3, 0, 2}, {}), kLabels);
  CHECK(e.path() == "header");
  CHECK_THAT(e.message(), Contains("dimension 2 is 0"));
}

TEST_CASE("a label outside the classes names its position") {
  const InputError e = error_of(kImages, idx({3}, {0, 9, 10}));
  CHECK_THAT(e.file(), Contains("e-labels"));
  CHECK(e.path() == "label 3");
  CHECK_THAT(e.message(), Contains("label 10 is outside 0..9"));
}

TEST_CASE("a directory in MNIST's layout loads training then test samples with the official split") {
  const auto dir = scratch_dir() / "layout";
  std::filesystem::create_directories(dir);
  write("layout/train-images-idx3-ubyte", kImages);
  write("layout/train-labels-idx1-ubyte", kLabels);
  write("layout/t10k-images-idx3-ubyte", idx({1, 2, 2}, {7, 7, 7, 7}));
  write("layout/t10k-labels-idx1-ubyte", idx({1}, {5}));
  const TrainTestData d = load_mnist_layout(dir.string(), 2);
  CHECK(d.data.source == dir.string());
  CHECK(d.data.labels == std::vector<std::int64_t>{0, 9, 5});
  CHECK(d.split.train == std::vector<std::size_t>{0, 1});
  CHECK(d.split.test == std::vector<std::size_t>{2});
  CHECK(d.data.samples[2].data[0] == 7.0f / 255);
}

TEST_CASE("a missing MNIST-layout directory is one error naming it") {
  const auto dir = (scratch_dir() / "no-such-dir").string();
  CHECK_THROWS_WITH(load_mnist_layout(dir), Contains(dir) && Contains("directory of IDX files not found"));
}

// Fashion-MNIST (Xiao et al. 2017): 60,000 training and 10,000 test images of 28x28, 10 balanced
// classes (1,000 each in the test set); the first label of either file is 9 (ankle boot) and the first
// training image's brightest pixel is 255 at index 417 (read with Python's gzip module).
TEST_CASE("Fashion-MNIST from dataset-fashion-mnist loads gzip IDX files with the official split") {
  INFO("Fashion-MNIST is missing: install dataset-fashion-mnist (scripts/install-deps.sh)");
  REQUIRE(std::filesystem::is_directory(default_fashion_mnist_dir()));
  const TrainTestData d = load_mnist_layout(default_fashion_mnist_dir(), 100);
  CHECK(d.data.sample_shape == Shape{1, 28, 28});
  CHECK(d.split.train.size() == 100);
  REQUIRE(d.split.test.size() == 10000);
  CHECK(d.data.labels[0] == 9);
  CHECK(d.data.labels[100] == 9);
  CHECK(d.data.samples[0].data[417] == 1.0f);
  std::vector<int> counts(10, 0);
  for (auto i : d.split.test) ++counts.at(static_cast<std::size_t>(d.data.labels[i]));
  CHECK(counts == std::vector<int>(10, 1000));
}
