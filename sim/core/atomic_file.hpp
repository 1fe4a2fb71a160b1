#pragma once
/// Writes a whole file or nothing: the text goes to `path.tmp.<pid>` first, then is renamed
/// over `path`, so a killed run never leaves a half-written result looking whole. A `path` that is
/// a device, pipe or socket (/dev/null, /dev/stdout, a FIFO) is written in place instead.
#include <functional>
#include <ostream>
#include <string>

namespace coinfer {

/// Creates parent folders as needed; throws `Error` naming the path on failure.
void write_file_atomic(const std::string& path, const std::string& text);

/// The same for output too large to hold twice (an ONNX model's weights): `write` streams it into
/// the temporary file. If `write` throws, or the stream fails, the temporary file is removed and
/// `path` left as it was; what `write` threw is rethrown.
void write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace coinfer

namespace coinfer {

/// A fresh, empty folder `parent/.staging-XXXXXX` (parent created as needed), where a command
/// assembles outputs before `publish_dir` moves them into place. Throws `Error` on failure.
std::string make_staging_dir(const std::string& parent);

/// Replaces the folder (or file) `to` with `from` (removing what `to` held), creating `to`'s
/// parent. Used to publish a staged result only once all of it is written.
void publish_dir(const std::string& from, const std::string& to);

/// Moves a file, also across file systems (copy to `to` atomically, then remove `from`).
void move_file(const std::string& from, const std::string& to);

/// The whole content of a file, bytes as they are (empty when it cannot be read).
std::string read_whole_file(const std::string& path);

}  // namespace coinfer
