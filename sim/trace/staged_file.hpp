#pragma once
/// A file written front to back that appears at its path only when published, whole: until then
/// it has no name (Linux O_TMPFILE; where the file system lacks it, a hidden `.NAME.tmp-XXXXXX`
/// beside the target that the destructor removes). A run killed while writing leaves no file at
/// the target path; one destroyed without `publish` leaves nothing at all. Unbuffered: callers
/// append in large blocks (ChromeTraceWriter, frames.csv use 1 MiB buffers).
///
///     StagedFile file("out/trace.json");     // staged in out/, so publishing is a link + rename
///     file.append("{\"traceEvents\":[");
///     file.publish("out/trace.json");        // atomic: the old file or the whole new one
#include <string>
#include <string_view>

namespace coinfer {

class StagedFile {
 public:
  /// Stages in the folder of `target` (created as needed), or in the system's temp folder when
  /// `target` is empty (the path is then given to `publish`). Throws `Error` on failure.
  explicit StagedFile(const std::string& target = "");
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  /// Appends `bytes`. Throws `Error` (naming the target) when the write fails (disk full).
  void append(std::string_view bytes);
  /// Bytes appended so far.
  std::size_t size() const { return size_; }
  /// Puts the file at `path`, replacing what was there in one rename, creating its folder; across
  /// file systems the bytes are copied to a temporary beside `path` first. Once per file; throws
  /// `Error` when it cannot.
  void publish(const std::string& path);

 private:
  void copy_to(int out_fd, const std::string& path) const;

  int fd_ = -1;
  std::string target_;     ///< for messages: the intended path, or "a staged file"
  std::string temp_path_;  ///< the staged file's name when it has one (no O_TMPFILE)
  std::size_t size_ = 0;
  bool published_ = false;
};

}  // namespace coinfer
