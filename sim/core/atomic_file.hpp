#pragma once
/// Writes a whole file or nothing: the text goes to `path.tmp.<pid>` first, then is renamed
/// over `path`, so a killed run never leaves a half-written result looking whole.
#include <string>

namespace coinfer {

/// Creates parent folders as needed; throws `Error` naming the path on failure.
void write_file_atomic(const std::string& path, const std::string& text);

}  // namespace coinfer
