#include "sim/video/pan_source.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::video {
namespace {

constexpr double kMinZoomScale = 0.5;  // the window zooms in down to half its size, then back out
constexpr int kWeightOne = 256;        // bilinear weights in 1/256

// Per output coordinate, the source index of the left/top neighbour and its partner's weight: output pixel
// o of `out` spans [start + o * step, start + (o + 1) * step) in the source; its centre is sampled.
struct Taps {
  std::vector<int> index;
  std::vector<int> weight;
};

Taps make_taps(int out, double start, double span, int source) {
  Taps t;
  t.index.resize(static_cast<std::size_t>(out));
  t.weight.resize(static_cast<std::size_t>(out));
  const double step = span / out;
  for (int o = 0; o < out; ++o) {
    const double c = std::clamp(start + (o + 0.5) * step - 0.5, 0.0, source - 1.0);
    const int i = std::min(static_cast<int>(c), source - 2);
    t.index[static_cast<std::size_t>(o)] = i;
    t.weight[static_cast<std::size_t>(o)] = static_cast<int>(std::lround((c - i) * kWeightOne));
  }
  return t;
}

// Bilinear resampling of the source rectangle (x0, y0, w, h) of `src` into all of `dst`, in integers and in
// two passes: each source row the output needs is interpolated horizontally once (values in 1/256), then
// every output row blends two of those rows. The compiler vectorises both inner loops.
void resample(const Plane& src, double x0, double y0, double w, double h, Plane& dst) {
  const Taps tx = make_taps(dst.width, x0, w, src.width), ty = make_taps(dst.height, y0, h, src.height);
  const int first = ty.index.front(), last = ty.index.back() + 1;  // source rows used
  const auto width = static_cast<std::size_t>(dst.width);
  std::vector<std::uint16_t> rows(static_cast<std::size_t>(last - first + 1) * width);
  for (int r = first; r <= last; ++r) {
    const std::uint8_t* in = &src.data[static_cast<std::size_t>(r) * src.width];
    std::uint16_t* out = &rows[static_cast<std::size_t>(r - first) * width];
    for (std::size_t x = 0; x < width; ++x) {
      const int i = tx.index[x], wx = tx.weight[x];
      out[x] = static_cast<std::uint16_t>(in[i] * (kWeightOne - wx) + in[i + 1] * wx);
    }
  }
  for (int y = 0; y < dst.height; ++y) {
    const std::uint16_t* top = &rows[static_cast<std::size_t>(ty.index[y] - first) * width];
    const std::uint16_t* bottom = top + width;
    const std::uint32_t wy = static_cast<std::uint32_t>(ty.weight[y]), wt = kWeightOne - wy;
    std::uint8_t* out = &dst.data[static_cast<std::size_t>(y) * width];
    for (std::size_t x = 0; x < width; ++x)
      out[x] = static_cast<std::uint8_t>((top[x] * wt + bottom[x] * wy + kWeightOne * kWeightOne / 2) /
                                         (kWeightOne * kWeightOne));
  }
}

void check_options(const Picture& image, const PanOptions& o) {
  if (o.window.width > image.y.width || o.window.height > image.y.height || o.window.width < 2 ||
      o.window.height < 2)
    throw InputError("", "--window",
                     fmt::format("expected a window inside the {}x{} image, got {}", image.y.width,
                                 image.y.height, to_string(o.window)));
  if (!(o.zoom > 0.0) || !std::isfinite(o.zoom))
    throw InputError("", "--zoom", fmt::format("expected a number > 0, got {}", o.zoom));
  if (o.segments.empty()) throw InputError("", "--speeds", "expected at least one segment");
  for (std::size_t s = 0; s < o.segments.size(); ++s) {
    const auto& g = o.segments[s];
    if (g.frames < 1 || !std::isfinite(g.dx_px) || !std::isfinite(g.dy_px))
      throw InputError("", "--speeds",
                       fmt::format("segment {}: expected frames >= 1 and finite speeds", s + 1));
  }
}

}  // namespace

double reflect(double v, double lo, double hi) {
  const double len = hi - lo;
  if (!(len > 0.0)) return lo;
  double t = std::fmod(v - lo, 2.0 * len);
  if (t < 0.0) t += 2.0 * len;
  return lo + (t <= len ? t : 2.0 * len - t);
}

PanSource::PanSource(Picture image, PanOptions options, std::vector<Size> sizes)
    : image_(std::move(image)), options_(std::move(options)), sizes_(std::move(sizes)) {
  check_options(image_, options_);
  double ux = 0.0, uy = 0.0;
  for (const auto& g : options_.segments)
    for (int f = 0; f < g.frames; ++f, ++frames_) {
      if (frames_ > 0) ux += g.dx_px, uy += g.dy_px;  // frame 0 is where the window starts
      offset_x_.push_back(ux);
      offset_y_.push_back(uy);
    }
}

PanWindow PanSource::window_at(int i) const {
  const double w = options_.window.width, h = options_.window.height;
  // The window starts centred in the image.
  const double room_x = image_.y.width - w, room_y = image_.y.height - h;
  const double left = reflect(room_x / 2.0 + offset_x_[static_cast<std::size_t>(i)], 0.0, room_x);
  const double top = reflect(room_y / 2.0 + offset_y_[static_cast<std::size_t>(i)], 0.0, room_y);
  // The scale bounces in log space between 1 and 1/2, shrinking by `zoom` per frame.
  const double scale = std::exp(reflect(-i * std::log(options_.zoom), std::log(kMinZoomScale), 0.0));
  return {left + w / 2.0, top + h / 2.0, w * scale, h * scale};
}

std::optional<std::vector<Picture>> PanSource::next() {
  if (next_ >= frames_) return std::nullopt;
  const PanWindow win = window_at(next_++);
  const double x0 = win.center_x - win.width / 2.0, y0 = win.center_y - win.height / 2.0;
  std::vector<Picture> out;
  out.reserve(sizes_.size());
  for (const Size& s : sizes_) {
    Picture p(s);
    resample(image_.y, x0, y0, win.width, win.height, p.y);
    resample(image_.u, x0, y0, win.width, win.height, p.u);
    resample(image_.v, x0, y0, win.width, win.height, p.v);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace coinfer::video
