#pragma once
/// Where a video trace's frames come from: a decoded clip (ClipReader) or a synthetic pan over a still
/// image (PanSource). Each frame comes at every requested size, in the order the sizes were given.
#include <optional>
#include <vector>

#include "sim/video/picture.hpp"

namespace coinfer::video {

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  /// The next frame at every size, or nothing after the last.
  virtual std::optional<std::vector<Picture>> next() = 0;
};

}  // namespace coinfer::video
