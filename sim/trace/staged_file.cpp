#include "sim/trace/staged_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

namespace fs = std::filesystem;

std::string folder_of(const std::string& target) {
  if (target.empty()) {
    std::error_code ec;  // TMPDIR naming no folder: the usual one
    const auto tmp = fs::temp_directory_path(ec);
    return ec ? std::string("/tmp") : tmp.string();
  }
  const fs::path parent = fs::path(target).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

void make_folder(const std::string& folder, const std::string& what) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw Error(fmt::format("cannot create the folder of {}: {}", what, ec.message()));
}

// A name beside `path` no other writer uses: path.tmp.<pid>.<n>.
std::string temp_beside(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}.tmp.{}.{}", path, ::getpid(), counter++);
}

void write_all(int fd, const char* data, std::size_t n, const std::string& what) {
  while (n > 0) {
    const auto done = ::write(fd, data, n);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) throw Error(fmt::format("cannot write {}: {}", what, std::strerror(errno)));
    data += done;
    n -= static_cast<std::size_t>(done);
  }
}

}  // namespace

StagedFile::StagedFile(const std::string& target) : target_(target.empty() ? "a staged file" : target) {
  const auto folder = folder_of(target);
  make_folder(folder, target_);
  // O_RDWR: publishing may have to copy the bytes back out (another file system).
  fd_ = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
  if (fd_ >= 0) return;
  // No O_TMPFILE here (some network and overlay file systems): a hidden name, removed unless published.
  const auto base = target.empty() ? std::string("coinfer-staged") : fs::path(target).filename().string();
  std::string pattern = (fs::path(folder) / ("." + base + ".tmp-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) throw Error(fmt::format("cannot create {} in {}: {}", target_, folder, std::strerror(errno)));
  temp_path_ = name.data();
  const mode_t umask = ::umask(0);  // mkostemp makes 0600; publish with the usual 0666 & ~umask
  ::umask(umask);
  ::fchmod(fd_, 0666 & ~umask);
}

StagedFile::~StagedFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!published_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void StagedFile::append(std::string_view bytes) {
  write_all(fd_, bytes.data(), bytes.size(), target_);
  size_ += bytes.size();
}

void StagedFile::copy_to(int out_fd, const std::string& path) const {
  std::vector<char> block(1 << 20);
  for (off_t at = 0;;) {
    const auto n = ::pread(fd_, block.data(), block.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(fmt::format("cannot read back {}: {}", target_, std::strerror(errno)));
    if (n == 0) return;
    write_all(out_fd, block.data(), static_cast<std::size_t>(n), path);
    at += n;
  }
}

// Gives the bytes a name beside `path` (a hard link to the unnamed file, a rename of the hidden
// one, or a copy when `path` is on another file system), then renames that name over `path`.
void StagedFile::publish(const std::string& path) {
  if (published_) throw Error(fmt::format("{} was already published", target_));
  make_folder(folder_of(path), path);
  const auto tmp = temp_beside(path);
  bool named = false;
  if (temp_path_.empty()) {
    const auto self = fmt::format("/proc/self/fd/{}", fd_);
    named = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0;
  } else {
    named = ::rename(temp_path_.c_str(), tmp.c_str()) == 0;
  }
  if (!named) {
    const int out = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (out < 0) throw Error(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
    try {
      copy_to(out, path);
    } catch (...) {
      ::close(out);
      ::unlink(tmp.c_str());
      throw;
    }
    ::close(out);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw Error(fmt::format("cannot write {}: {}", path, std::strerror(err)));
  }
  published_ = true;
  if (!temp_path_.empty() && !named) ::unlink(temp_path_.c_str());
}

}  // namespace coinfer
