#include "sim/functional/idx_dataset.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/gz_file.hpp"

namespace coinfer {
namespace {

constexpr int kUnsignedByte = 0x08;  // IDX type code of the data
constexpr std::int64_t kMaxPixels = std::int64_t{1} << 24;
constexpr float kMaxIdxPixel = 255.0f;

// One IDX file opened through zlib (gzread reads gzip and plain files alike), its header read.
class IdxFile {
 public:
  IdxFile(std::string path, int dimensions, const std::string& package) : path_(std::move(path)) {
    if (!std::filesystem::is_regular_file(path_))
      throw InputError(path_, "",
                       package.empty() ? "IDX file not found"
                                       : fmt::format("IDX file not found (Debian's {} installs it: apt-get "
                                                     "install {})",
                                                     package, package));
    file_.reset(gzopen(path_.c_str(), "rb"));
    if (!file_) throw InputError(path_, "", "cannot open the file");
    const std::uint32_t expected = (kUnsignedByte << 8) | static_cast<std::uint32_t>(dimensions);
    const std::uint32_t magic = read_u32("the magic number");
    if (magic != expected)
      throw InputError(path_, "header",
                       fmt::format("expected the IDX magic number 0x{:08x} (unsigned bytes, {} dimensions), "
                                   "got 0x{:08x}",
                                   expected, dimensions, magic));
    for (int d = 0; d < dimensions; ++d) {
      const std::uint32_t size = read_u32(fmt::format("the size of dimension {}", d + 1));
      if (size == 0 || size > kMaxPixels)
        throw InputError(path_, "header",
                         fmt::format("dimension {} is {}, expected 1..{}", d + 1, size, kMaxPixels));
      dims_.push_back(size);
    }
  }

  const std::string& path() const { return path_; }
  const std::vector<std::int64_t>& dims() const { return dims_; }

  /// Reads `n` bytes of data; `what` names them in the error when the file ends first.
  void read(unsigned char* out, std::size_t n, const std::string& what) {
    const int got = gzread(file_.get(), out, static_cast<unsigned>(n));
    if (got < 0) {
      int status = Z_OK;
      throw InputError(path_, "", fmt::format("cannot read the file: {}", gzerror(file_.get(), &status)));
    }
    if (static_cast<std::size_t>(got) != n)
      throw InputError(
          path_, "",
          fmt::format("the data ends early: {} needs {} bytes, the file has {} left", what, n, got));
  }

 private:
  std::uint32_t read_u32(const std::string& what) {
    std::array<unsigned char, 4> b{};
    read(b.data(), b.size(), fmt::format("the header's {}", what));
    return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
  }

  std::string path_;
  GzFile file_;
  std::vector<std::int64_t> dims_;
};

// `dir/name.gz` when it exists, else `dir/name` when that exists, else `dir/name.gz` (to be reported
// missing).
std::string idx_path(const std::string& dir, const std::string& name) {
  const auto plain = std::filesystem::path(dir) / name;
  const auto gz = std::filesystem::path(dir) / (name + ".gz");
  return (!std::filesystem::exists(gz) && std::filesystem::exists(plain) ? plain : gz).string();
}

void append(Dataset& to, Dataset&& from) {
  for (auto& s : from.samples) to.samples.push_back(std::move(s));
  to.labels.insert(to.labels.end(), from.labels.begin(), from.labels.end());
}

}  // namespace

std::string default_fashion_mnist_dir() { return "/usr/share/datasets/fashion-mnist"; }

Dataset load_idx(const std::string& images, const std::string& labels, std::int64_t classes,
                 std::size_t limit, const std::string& package) {
  IdxFile image_file(images, 3, package), label_file(labels, 1, package);
  const std::int64_t count = image_file.dims()[0], rows = image_file.dims()[1], cols = image_file.dims()[2];
  if (rows * cols > kMaxPixels)
    throw InputError(images, "header",
                     fmt::format("images of {}x{} pixels, expected at most {}", rows, cols, kMaxPixels));
  if (label_file.dims()[0] != count)
    throw InputError(
        labels, "header",
        fmt::format("holds {} labels but {} holds {} images", label_file.dims()[0], images, count));
  const std::size_t keep = std::min(limit, static_cast<std::size_t>(count));
  Dataset d{images, {1, rows, cols}, classes, {}, {}};
  d.samples.reserve(keep);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < keep; ++i) {
    image_file.read(bytes.data(), bytes.size(), fmt::format("image {} of {}", i + 1, count));
    Tensor image(d.sample_shape);
    std::transform(bytes.begin(), bytes.end(), image.data.begin(),
                   [](unsigned char v) { return static_cast<float>(v) / kMaxIdxPixel; });
    d.samples.push_back(std::move(image));
  }
  std::vector<unsigned char> label_bytes(keep);
  label_file.read(label_bytes.data(), keep, fmt::format("{} labels", keep));
  for (std::size_t i = 0; i < keep; ++i) {
    if (label_bytes[i] >= classes)
      throw InputError(labels, fmt::format("label {}", i + 1),
                       fmt::format("label {} is outside 0..{}", label_bytes[i], classes - 1));
    d.labels.push_back(label_bytes[i]);
  }
  return d;
}

TrainTestData load_mnist_layout(const std::string& dir, std::size_t train_limit) {
  const std::string package = "dataset-fashion-mnist";
  if (!std::filesystem::is_directory(dir))
    throw InputError(dir, "",
                     fmt::format("directory of IDX files not found (Debian's {} installs Fashion-MNIST's: "
                                 "apt-get install {})",
                                 package, package));
  Dataset train = load_idx(idx_path(dir, "train-images-idx3-ubyte"), idx_path(dir, "train-labels-idx1-ubyte"),
                           10, train_limit, package);
  Dataset test = load_idx(idx_path(dir, "t10k-images-idx3-ubyte"), idx_path(dir, "t10k-labels-idx1-ubyte"),
                          10, std::numeric_limits<std::size_t>::max(), package);
  if (test.sample_shape != train.sample_shape)
    throw InputError(test.source, "header",
                     fmt::format("test images are {}, the training images {}",
                                 shape_to_string(test.sample_shape), shape_to_string(train.sample_shape)));
  TrainTestData out{std::move(train), {}};
  out.data.source = dir;
  for (std::size_t i = 0; i < out.data.size(); ++i) out.split.train.push_back(i);
  for (std::size_t i = 0; i < test.size(); ++i) out.split.test.push_back(out.data.size() + i);
  append(out.data, std::move(test));
  return out;
}

}  // namespace coinfer
