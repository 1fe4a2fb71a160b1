#pragma once
/// Errors raised by coinfer. User input is checked where it enters and reported with
/// an `InputError` naming the file (when known), the key path and the expectation;
/// the CLI turns any `coinfer::Error` into one line on stderr and exit code 2.
#include <stdexcept>
#include <string>

namespace coinfer {

/// Base of every error coinfer reports to a user.
/// Its text is printable: control bytes other than newline and tab (a NUL in a fuzzed key
/// path would otherwise cut `what()` short) read `\xNN`.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what);
  explicit Error(const char* what) : Error(std::string(what)) {}
};

/// Bad user input: `what()` reads `file: path: expectation` (parts omitted when empty).
/// Example: `InputError("platforms/wlan.yaml", "devices[2].calibration", "file 'x.json' not found")`.
class InputError : public Error {
 public:
  InputError(std::string file, std::string path, std::string message);

  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  const std::string& message() const { return message_; }

  /// The same error, attributed to `file` (used when a loader learns the file name late).
  InputError with_file(std::string file) const;
  /// The same error, with `prefix` put in front of the path (`layers[3]` + `stride`).
  InputError with_path_prefix(const std::string& prefix) const;

 private:
  std::string file_;
  std::string path_;
  std::string message_;
};

/// Joins two key paths: `join_path("layers[3]", "stride") == "layers[3].stride"`.
std::string join_path(const std::string& parent, const std::string& key);
/// `index_path("layers", 3) == "layers[3]"`.
std::string index_path(const std::string& parent, std::size_t index);

}  // namespace coinfer
