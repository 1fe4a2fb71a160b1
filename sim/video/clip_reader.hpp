#pragma once
/// Decodes a clip or a still image with libavformat/libavcodec, one thread, and scales every frame with
/// libswscale to yuv420p at each requested size.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/video/frame_source.hpp"

namespace coinfer::video {

class ClipReader : public FrameSource {
 public:
  /// Opens `path`; throws InputError(path, "", ...) when it is not a file FFmpeg reads as video or an
  /// image (a text file, say). Example: `ClipReader r("vtest.avi", {{640, 480}});`.
  ClipReader(const std::string& path, std::vector<Size> sizes);
  ~ClipReader() override;
  ClipReader(const ClipReader&) = delete;
  ClipReader& operator=(const ClipReader&) = delete;

  /// The next frame at every size (in the order given), or nothing at the end of the clip.
  std::optional<std::vector<Picture>> next() override;
  /// The clip's own frame size.
  Size source_size() const;

 private:
  friend Picture read_still_yuv444(const std::string& path);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A still image's first frame at its own size, as yuv444p (chroma at full size, for resampling).
/// Throws InputError(path, "", ...) like ClipReader. Example: `read_still_yuv444("china.jpg")`.
Picture read_still_yuv444(const std::string& path);

}  // namespace coinfer::video
