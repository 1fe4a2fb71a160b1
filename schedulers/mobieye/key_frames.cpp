#include "schedulers/mobieye/key_frames.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::mobieye {
namespace {

// Checks that policies are asked about frames 0, 1, 2, ... in order.
class FrameOrder {
 public:
  void next(std::size_t frame) {
    assert(frame == next_);
    (void)frame;
    ++next_;
  }

 private:
  std::size_t next_ = 0;
};

class StaticInterval final : public KeyFramePolicy {
 public:
  explicit StaticInterval(int interval) : interval_(static_cast<std::size_t>(interval)) {
    assert(interval >= 1);
  }
  bool is_key(std::size_t frame) override {
    order_.next(frame);
    return frame % interval_ == 0;
  }

 private:
  std::size_t interval_;
  FrameOrder order_;
};

// [Mao-PhD §4.4.3], with the choices the header lists.
class Vds final : public KeyFramePolicy {
 public:
  Vds(const VdsParams& p, std::vector<double> motion_px) : p_(p), motion_px_(std::move(motion_px)) {}

  bool is_key(std::size_t frame) override {
    order_.next(frame);
    assert(frame < motion_px_.size());
    if (frame == 0) return restart(0);
    const double motion = motion_px_[frame];
    assert(std::isfinite(motion) && motion >= 0);
    mv_acc_ += motion;
    const int fi_cur = mv_acc_ > p_.mv_max ? p_.fi_min : vds_interval(p_, motion);
    if (frame - last_key_ >= static_cast<std::size_t>(fi_cur)) return restart(frame);
    return false;
  }

 private:
  bool restart(std::size_t frame) {
    last_key_ = frame;
    mv_acc_ = 0;
    return true;
  }

  VdsParams p_;
  std::vector<double> motion_px_;
  std::size_t last_key_ = 0;
  double mv_acc_ = 0;  // motion since the last key frame, px
  FrameOrder order_;
};

}  // namespace

VdsParams VdsParams::from_json(const Json& j, const std::string& file, const std::string& path) {
  try {
    if (!j.is_object()) throw InputError("", path, "expected an object {mv_max, fi_min, fi_max, mv_min?}");
    json_reject_unknown_keys(j, path, {"mv_min", "mv_max", "fi_min", "fi_max"});
    VdsParams p;
    p.mv_min = json_number_or(j, "mv_min", path, 0.0, 0.0);
    p.mv_max = json_number(j, "mv_max", path, 0.0);
    if (!(p.mv_max > p.mv_min))
      throw InputError("", join_path(path, "mv_max"),
                       fmt::format("expected > mv_min ({}), got {}", p.mv_min, p.mv_max));
    // An interval beyond a million frames (over nine hours at 30 fps) is a typo, and keeps int safe.
    constexpr std::int64_t kMaxInterval = 1'000'000;
    p.fi_min = static_cast<int>(json_int(j, "fi_min", path, 1, kMaxInterval));
    p.fi_max = static_cast<int>(json_int(j, "fi_max", path, 1, kMaxInterval));
    if (p.fi_min > p.fi_max)
      throw InputError("", join_path(path, "fi_min"),
                       fmt::format("expected <= fi_max ({}), got {}", p.fi_max, p.fi_min));
    return p;
  } catch (const InputError& e) {
    throw e.with_file(file);
  }
}

int vds_interval(const VdsParams& p, double motion_px) {
  assert(p.mv_min < p.mv_max && p.fi_min <= p.fi_max);
  // Min-max mapping [Mao-PhD §4.4.3]: mv_min -> fi_max, mv_max -> fi_min, linear between.
  const double m = std::clamp(motion_px, p.mv_min, p.mv_max);
  const double share = (m - p.mv_min) / (p.mv_max - p.mv_min);
  return static_cast<int>(std::lround(p.fi_max - share * (p.fi_max - p.fi_min)));
}

std::unique_ptr<KeyFramePolicy> static_interval(int interval) {
  return std::make_unique<StaticInterval>(interval);
}

std::unique_ptr<KeyFramePolicy> vds(const VdsParams& p, std::vector<double> motion_px) {
  return std::make_unique<Vds>(p, std::move(motion_px));
}

std::vector<bool> key_frames(KeyFramePolicy& policy, std::size_t frames) {
  std::vector<bool> keys(frames);
  for (std::size_t f = 0; f < frames; ++f) keys[f] = policy.is_key(f);
  return keys;
}

double average_key_interval(const std::vector<bool>& keys) {
  const auto count = std::count(keys.begin(), keys.end(), true);
  if (count == 0) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(keys.size()) / static_cast<double>(count);
}

}  // namespace coinfer::mobieye
