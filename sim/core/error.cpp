#include "sim/core/error.hpp"

namespace coinfer {
namespace {

std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7F) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

std::string compose(const std::string& file, const std::string& path, const std::string& message) {
  std::string out;
  if (!file.empty()) out += file + ": ";
  if (!path.empty()) out += path + ": ";
  return out + message;
}

}  // namespace

Error::Error(const std::string& what) : std::runtime_error(printable(what)) {}

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
