#include "sim/functional/dataset.hpp"

#include <zlib.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/gz_file.hpp"
#include "sim/kernels/resize.hpp"

namespace coinfer {
namespace {

constexpr std::int64_t kDigitSide = 8, kDigitClasses = 10;
constexpr int kMaxPixel = 16;

// Splits a CSV row into integers; returns a message ("" when fine).
std::string parse_row(std::string_view line, std::vector<int>& values) {
  values.clear();
  std::size_t pos = 0;
  while (pos <= line.size()) {
    const std::size_t comma = std::min(line.find(',', pos), line.size());
    const std::string_view cell = line.substr(pos, comma - pos);
    // The values are integers, written "5" or "5.0".
    double v = 0.0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    if (ec != std::errc() || end != cell.data() + cell.size() || v != std::floor(v))
      return fmt::format("value {}: expected an integer, got '{}'", values.size() + 1, cell);
    values.push_back(static_cast<int>(v));
    pos = comma + 1;
  }
  return "";
}

void add_digit(Dataset& d, const std::vector<int>& values, const std::string& path, std::size_t line) {
  const auto fail = [&](const std::string& message) {
    throw InputError(path, fmt::format("line {}", line), message);
  };
  const std::size_t pixels = kDigitSide * kDigitSide;
  if (values.size() != pixels + 1)
    fail(fmt::format("expected {} pixel values and a label, got {} values", pixels, values.size()));
  Tensor image(d.sample_shape);
  for (std::size_t i = 0; i < pixels; ++i) {
    if (values[i] < 0 || values[i] > kMaxPixel)
      fail(fmt::format("pixel {} is {}, expected 0..{}", i + 1, values[i], kMaxPixel));
    image.data[i] = static_cast<float>(values[i]) / kMaxPixel;
  }
  if (values.back() < 0 || values.back() >= kDigitClasses)
    fail(fmt::format("label {} is outside 0..{}", values.back(), kDigitClasses - 1));
  d.samples.push_back(std::move(image));
  d.labels.push_back(values.back());
}

}  // namespace

std::string default_digits_path() {
  return "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz";
}

Dataset load_digits(const std::string& path) {
  if (!std::filesystem::is_regular_file(path))
    throw InputError(path, "",
                     "digits dataset not found (Debian's python3-sklearn installs it: apt-get install "
                     "python3-sklearn; or give another file with --data)");
  GzFile file(gzopen(path.c_str(), "rb"));
  if (!file) throw InputError(path, "", "cannot open the file");
  Dataset d{path, {1, kDigitSide, kDigitSide}, kDigitClasses, {}, {}};
  std::vector<int> values;
  std::string line;
  char buffer[4096];
  std::size_t line_number = 0;
  // gzgets returns at most one line per call (longer lines come in several pieces).
  while (gzgets(file.get(), buffer, sizeof buffer) != nullptr) {
    line += buffer;
    if (!line.ends_with('\n') && !gzeof(file.get())) continue;
    ++line_number;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (!line.empty()) {
      const std::string problem = parse_row(line, values);
      if (!problem.empty()) throw InputError(path, fmt::format("line {}", line_number), problem);
      add_digit(d, values, path, line_number);
    }
    line.clear();
  }
  int status = Z_OK;
  const char* message = gzerror(file.get(), &status);
  if (status != Z_OK && status != Z_STREAM_END)
    throw InputError(path, "", fmt::format("cannot read the file: {}", message));
  if (d.samples.empty()) throw InputError(path, "", "no samples in the file");
  return d;
}

Dataset resized(const Dataset& data, std::int64_t height, std::int64_t width, std::int64_t limit_bytes) {
  if (data.sample_shape.size() != 3)
    throw InputError("", "resize",
                     fmt::format("expected samples of shape (C, H, W), {} has {}", data.source,
                                 shape_to_string(data.sample_shape)));
  if (height < 1 || width < 1)
    throw InputError("", "resize", fmt::format("expected sizes >= 1, got {}x{}", height, width));
  // samples x C x height x width floats, checked before the first is allocated
  const double per_pixel = double(data.size()) * double(data.sample_shape[0]) * 4.0;
  const double bytes = per_pixel * double(height) * double(width);
  if (bytes > double(limit_bytes)) {
    const auto side = static_cast<std::int64_t>(std::sqrt(double(limit_bytes) / per_pixel));
    throw InputError("", "resize",
                     fmt::format("expected at most {} (the largest N x N for which the {} samples of {} fit "
                                 "in this host's memory, {:.4g} bytes), got {}x{}, which needs {:.4g} bytes",
                                 side, data.size(), data.source, double(limit_bytes), height, width, bytes));
  }
  Dataset out{data.source, {data.sample_shape[0], height, width}, data.classes, {}, data.labels};
  out.samples.reserve(data.size());
  for (const Tensor& x : data.samples) out.samples.push_back(kernels::resize_bilinear(x, height, width));
  return out;
}

void shuffle_indices(std::vector<std::size_t>& indices, std::uint64_t seed) {
  Rng rng(seed);
  for (std::size_t i = indices.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(rng.engine()() % i);  // uniform in [0, i)
    std::swap(indices[i - 1], indices[j]);
  }
}

DatasetSplit split_dataset(std::size_t samples, double test_fraction, std::uint64_t seed) {
  const auto test = static_cast<std::size_t>(std::llround(static_cast<double>(samples) * test_fraction));
  if (!(test_fraction > 0.0 && test_fraction < 1.0) || test == 0 || test >= samples)
    throw InputError("", "test_fraction",
                     fmt::format("expected a fraction in (0, 1) leaving both a test and a training sample "
                                 "out of {}, got {}",
                                 samples, test_fraction));
  std::vector<std::size_t> order(samples);
  for (std::size_t i = 0; i < samples; ++i) order[i] = i;
  shuffle_indices(order, derive_seed(seed, "split"));
  DatasetSplit s;
  s.test.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(test));
  s.train.assign(order.begin() + static_cast<std::ptrdiff_t>(test), order.end());
  return s;
}

}  // namespace coinfer
