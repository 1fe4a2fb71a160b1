#pragma once
/// Labelled samples for functional training, and the real dataset coinfer reads offline: the 8x8
/// handwritten digits (UCI optdigits test set, 1797 images) that scikit-learn ships and Debian packages
/// (python3-sklearn). coinfer reads the gzip CSV itself; no Python runs.
///
///     Dataset d = load_digits(default_digits_path());       // 1797 samples [1, 8, 8], labels 0..9
///     DatasetSplit s = split_dataset(d.size(), 0.2, 42);     // seeded: 1438 train, 359 test
#include <cstdint>
#include <string>
#include <vector>

#include "sim/functional/forward_pass.hpp"  // host_memory_bytes
#include "sim/kernels/tensor.hpp"

namespace coinfer {

struct Dataset {
  std::string source;  ///< the file it was read from
  Shape sample_shape;
  std::int64_t classes = 0;
  std::vector<Tensor> samples;
  std::vector<std::int64_t> labels;  ///< in [0, classes)

  std::size_t size() const { return samples.size(); }
};

/// Where Debian's python3-sklearn installs the digits:
/// /usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz.
std::string default_digits_path();

/// Reads the digits CSV (gzip or plain): one row per image, 64 pixel values in 0..16 (row-major 8x8)
/// then the label 0..9. Samples are [1, 8, 8] with pixels scaled to [0, 1] (value / 16).
/// Throws `InputError(path, "", ...)` when the file is missing (saying which package provides it),
/// and `InputError(path, "line N", ...)` for a malformed row.
Dataset load_digits(const std::string& path);

/// The dataset with every sample resized to (C, height, width) by bilinear interpolation
/// (kernels::resize_bilinear): the 8x8 digits upscaled for a network that takes 28x28 MNIST digits.
/// Throws `InputError("", "resize", ...)` unless the samples are (C, H, W), both sizes are >= 1 and
/// the resized samples (4 bytes a value) fit in `limit_bytes` (default: this host's memory), which
/// is checked before anything is allocated. Example: `resized(digits, 28, 28)`.
Dataset resized(const Dataset& data, std::int64_t height, std::int64_t width,
                std::int64_t limit_bytes = host_memory_bytes());

struct DatasetSplit {
  std::vector<std::size_t> train, test;  ///< sample indices
};

/// A seeded random split of `samples` indices: round(samples * test_fraction) go to `test` (in
/// shuffled order), the rest to `train`. Throws `InputError("", "test_fraction", ...)` unless
/// 0 < test_fraction < 1 and both parts are non-empty.
DatasetSplit split_dataset(std::size_t samples, double test_fraction, std::uint64_t seed);

/// Fisher-Yates shuffle drawn from `seed` with coinfer's Rng, so the order is the same on every
/// platform (std::shuffle's algorithm is implementation-defined).
void shuffle_indices(std::vector<std::size_t>& indices, std::uint64_t seed);

}  // namespace coinfer
