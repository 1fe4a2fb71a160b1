#include "sim/core/atomic_file.hpp"

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "sim/core/error.hpp"

namespace coinfer {

void write_file_atomic(const std::string& path, const std::string& text) {
  const std::filesystem::path target(path);
  std::error_code made;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), made);
  if (made) throw Error("cannot create the folder of " + path + ": " + made.message());
  const auto tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw Error("cannot write " + path);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, target, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw Error("cannot write " + path + ": " + ec.message());
  }
}

}  // namespace coinfer
