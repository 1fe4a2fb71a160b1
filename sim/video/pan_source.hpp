#pragma once
/// A synthetic pan (and zoom) over one still image, with known motion: a crop window of the image moves
/// (dx, dy) image pixels per frame and is resampled (bilinear) to every output size. At an edge of the
/// image the window bounces back (its position is reflected), so any number of frames fits.
#include <vector>

#include "sim/video/frame_source.hpp"

namespace coinfer::video {

/// `frames` consecutive frames moving (dx_px, dy_px) image pixels per frame.
struct PanSegment {
  int frames = 0;
  double dx_px = 0.0;
  double dy_px = 0.0;
};

struct PanOptions {
  std::vector<PanSegment> segments;  ///< in order; the trace has the sum of their frames
  Size window{320, 240};             ///< crop window in image pixels (at zoom scale 1)
  /// Window scale factor per frame: the window shrinks by `zoom` each frame (> 1 zooms in), bouncing
  /// between scale 1/2 and 1; 1 is a pure pan.
  double zoom = 1.0;
};

/// Where the crop window is in frame i: its centre and size in image pixels.
struct PanWindow {
  double center_x = 0.0, center_y = 0.0;
  double width = 0.0, height = 0.0;
};

class PanSource : public FrameSource {
 public:
  /// `image` as read_still_yuv444 gives it. Throws InputError("", "--window", ...) when the window does not
  /// fit the image, InputError("", "--zoom", ...) for a zoom <= 0, InputError("", "--speeds", ...) for a
  /// segment of no frames. Example: `PanSource(read_still_yuv444("china.jpg"), {{{30, 2, 0}}}, {{320,
  /// 240}})`.
  PanSource(Picture image, PanOptions options, std::vector<Size> sizes);

  std::optional<std::vector<Picture>> next() override;
  int frames() const { return frames_; }
  /// The window of frame `i` (0-based).
  PanWindow window_at(int i) const;

 private:
  Picture image_;
  PanOptions options_;
  std::vector<Size> sizes_;
  std::vector<double> offset_x_, offset_y_;  // unreflected travel of the window's left/top edge per frame
  int frames_ = 0;
  int next_ = 0;
};

/// `v` folded into [lo, hi] by reflection at both ends (a bouncing position): reflect(12, 0, 10) == 8.
double reflect(double v, double lo, double hi);

}  // namespace coinfer::video
