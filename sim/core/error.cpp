#include "sim/core/error.hpp"

namespace coinfer {
namespace {

std::string compose(const std::string& file, const std::string& path, const std::string& message) {
  std::string out;
  if (!file.empty()) out += file + ": ";
  if (!path.empty()) out += path + ": ";
  return out + message;
}

}  // namespace

InputError::InputError(std::string file, std::string path, std::string message)
    : Error(compose(file, path, message)),
      file_(std::move(file)),
      path_(std::move(path)),
      message_(std::move(message)) {}

InputError InputError::with_file(std::string file) const { return {std::move(file), path_, message_}; }

InputError InputError::with_path_prefix(const std::string& prefix) const {
  return {file_, join_path(prefix, path_), message_};
}

std::string join_path(const std::string& parent, const std::string& key) {
  if (parent.empty()) return key;
  if (key.empty()) return parent;
  if (key.front() == '[') return parent + key;
  return parent + "." + key;
}

std::string index_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

}  // namespace coinfer
