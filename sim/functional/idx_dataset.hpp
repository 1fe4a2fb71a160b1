#pragma once
/// Datasets in the IDX format of MNIST (LeCun's layout: big-endian header, unsigned bytes), gzip or
/// plain, and the one coinfer reads offline: Fashion-MNIST (Xiao et al. 2017; 60,000 training and
/// 10,000 test images of 28x28 grayscale clothing, 10 classes), which Debian's dataset-fashion-mnist
/// installs under /usr/share/datasets/fashion-mnist. It has MNIST's shape, so the dissertation's MNIST
/// networks (mxnet_mlp, mxnet_lenet) take it as is.
///
///     TrainTestData d = load_mnist_layout(default_fashion_mnist_dir(), 2000);  // first 2000 train
///     // d.data: 12,000 samples [1, 28, 28]; d.train = 0..1999, d.test = 2000..11999 (t10k)
#include <cstdint>
#include <limits>
#include <string>

#include "sim/functional/dataset.hpp"

namespace coinfer {

/// Where Debian's dataset-fashion-mnist installs the four files: /usr/share/datasets/fashion-mnist.
std::string default_fashion_mnist_dir();

/// Reads an image file (IDX magic 0x00000803: count x rows x cols bytes) and its label file (magic
/// 0x00000801: count bytes), each gzip or plain, keeping the first `limit` pairs. Samples are
/// [1, rows, cols] with pixels scaled to [0, 1] (value / 255); labels must lie in [0, classes).
/// Throws `InputError(file, "", ...)` for a missing file (naming `package` when not empty) or data
/// that ends early, `InputError(file, "header", ...)` for a bad magic number or a zero size, the
/// label file's error when the two counts differ, and `InputError(labels, "label N", ...)` (N from 1)
/// for a label out of range.
Dataset load_idx(const std::string& images, const std::string& labels, std::int64_t classes = 10,
                 std::size_t limit = std::numeric_limits<std::size_t>::max(),
                 const std::string& package = "");

/// A dataset with an official train/test split: `data` holds the training samples then the test ones.
struct TrainTestData {
  Dataset data;
  DatasetSplit split;  ///< train: 0..n-1 in file order, test: the rest
};

/// The four files of the MNIST layout in `dir` (train-images-idx3-ubyte, train-labels-idx1-ubyte,
/// t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte; each with ".gz" or without), 10 classes, keeping
/// the first `train_limit` training samples and the whole test set. `data.source` is `dir`.
/// Throws as load_idx (a missing file names dataset-fashion-mnist, the package that provides them).
TrainTestData load_mnist_layout(const std::string& dir,
                                std::size_t train_limit = std::numeric_limits<std::size_t>::max());

}  // namespace coinfer
