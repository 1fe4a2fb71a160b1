#include "sim/core/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <unistd.h>

#include "sim/core/error.hpp"

namespace coinfer {

namespace {

/// Opens `file` (truncated) and has `write` fill it; Error naming `path` when it fails.
void write_stream(const std::string& file, const std::string& path,
                  const std::function<void(std::ostream&)>& write) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("cannot write " + path);
  write(out);
  out.flush();
  if (!out) throw Error("cannot write " + path);
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& text) {
  write_file_atomic(path, [&text](std::ostream& out) { out << text; });
}

void write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::filesystem::path target(path);
  // A device, pipe or socket (/dev/null, /dev/stdout, a FIFO) is written in place: renaming a
  // file over it would replace it (for root, /dev/null itself).
  std::error_code no_status;
  const auto status = std::filesystem::status(target, no_status);
  if (!no_status && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
      !std::filesystem::is_directory(status)) {
    write_stream(path, path, write);
    return;
  }
  std::error_code made;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), made);
  if (made) throw Error("cannot create the folder of " + path + ": " + made.message());
  const auto tmp = path + ".tmp." + std::to_string(::getpid());
  const auto drop_tmp = [&tmp] {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
  };
  try {
    write_stream(tmp, path, write);
  } catch (...) {
    drop_tmp();
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, target, ec);
  if (ec) {
    drop_tmp();
    throw Error("cannot write " + path + ": " + ec.message());
  }
}

std::string make_staging_dir(const std::string& parent) {
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) throw Error("cannot create the folder " + parent + ": " + ec.message());
  std::string pattern = (std::filesystem::path(parent) / ".staging-XXXXXX").string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr)
    throw Error("cannot create a staging folder in " + parent + ": " + std::strerror(errno));
  return std::string(buffer.data());
}

void publish_dir(const std::string& from, const std::string& to) {
  std::error_code ec;
  const std::filesystem::path target(to);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  std::filesystem::remove_all(target, ec);
  std::filesystem::rename(from, target, ec);
  if (ec) throw Error("cannot move " + from + " to " + to + ": " + ec.message());
}

void move_file(const std::string& from, const std::string& to) {
  std::error_code ec;
  std::filesystem::rename(from, to, ec);
  if (!ec) return;
  write_file_atomic(to, read_whole_file(from));
  std::filesystem::remove(from, ec);
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace coinfer
