#include "sim/video/video_trace.hpp"

#include <chrono>
#include <memory>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/video/masks.hpp"
#include "sim/video/motion_vectors.hpp"

namespace coinfer::video {
namespace {

constexpr int kHistory = kMaskDistances.back() + 1;  // decoded luma planes kept for mask_d<d>

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

void check(const VideoTraceOptions& o) {
  if (o.sizes.empty()) throw InputError("", "--size", "expected at least one size");
  if (o.threshold < 1 || o.threshold > 255)
    throw InputError("", "--threshold", fmt::format("expected an integer in [1, 255], got {}", o.threshold));
  if (o.margin_px < 0 || o.margin_px > 8192)
    throw InputError("", "--margin-px", fmt::format("expected an integer in [0, 8192], got {}", o.margin_px));
  if (o.max_frames < 0)
    throw InputError("", "--frames", fmt::format("expected an integer >= 1, got {}", o.max_frames));
}

// The analysis of the first size's decoded frames, in display order (no B frames: decode order).
class FrameAnalysis {
 public:
  explicit FrameAnalysis(const VideoTraceOptions& o)
      : options_(o), feedback_(o.sizes.front()), history_(kHistory) {}

  void add(DecodedFrame d, VideoFrameRow& row) {
    const std::int64_t i = d.index;
    row.type = d.type;
    if (d.type == 'I') {
      key_ = d.luma;
      feedback_.clear();
    } else {
      const auto m = summarize_motion(d.blocks);
      row.motion_px = m.mean_px;
      row.mv_count = m.count;
      feedback_.add_moving(d.blocks);
      row.mask_density = brightness_error_density(key_, d.luma, options_.threshold);
      row.feedback_density = feedback_.density(options_.margin_px);
    }
    for (std::size_t k = 0; k < kMaskDistances.size(); ++k)
      if (i >= kMaskDistances[k])
        row.mask_d[k] = brightness_error_density(history_[(i - kMaskDistances[k]) % kHistory], d.luma,
                                                 options_.threshold);
    history_[i % kHistory] = std::move(d.luma);
  }

 private:
  const VideoTraceOptions& options_;
  FeedbackMask feedback_;
  Plane key_;
  std::vector<Plane> history_;
};

class TraceBuilder {
 public:
  explicit TraceBuilder(const VideoTraceOptions& o) : analysis_(o) {
    check(o);
    for (const Size& s : o.sizes) encoders_.push_back(std::make_unique<H264Encoder>(s, o.encoder));
    trace_.sizes = o.sizes;
    trace_.host_times = o.host_times;
  }

  void add(const std::vector<Picture>& pictures) {
    const auto index = static_cast<std::int64_t>(trace_.rows.size());
    auto& row = trace_.rows.emplace_back();
    row.bytes.assign(encoders_.size(), 0);
    row.encode_ms.assign(encoders_.size(), 0.0);
    for (std::size_t k = 0; k < encoders_.size(); ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      auto out = encoders_[k]->encode(pictures[k], index);
      trace_.rows[static_cast<std::size_t>(index)].encode_ms[k] = elapsed_ms(t0);
      take(k, std::move(out));
    }
  }

  VideoTrace finish() {
    for (std::size_t k = 0; k < encoders_.size(); ++k) take(k, encoders_[k]->flush());
    for (auto& d : decoder_.flush()) analyse(std::move(d));
    return std::move(trace_);
  }

 private:
  // Records the encoded frames' sizes; the first size's frames go on to the decoder.
  void take(std::size_t k, std::vector<EncodedFrame> frames) {
    for (const auto& e : frames) {
      auto& row = trace_.rows.at(static_cast<std::size_t>(e.index));
      row.bytes[k] = e.data.size();
      if (k != 0) continue;
      const auto t0 = std::chrono::steady_clock::now();
      auto decoded = decoder_.decode(e);
      row.decode_ms = elapsed_ms(t0);
      for (auto& d : decoded) analyse(std::move(d));
    }
  }

  void analyse(DecodedFrame d) {
    auto& row = trace_.rows.at(static_cast<std::size_t>(d.index));
    analysis_.add(std::move(d), row);
  }

  std::vector<std::unique_ptr<H264Encoder>> encoders_;
  MotionDecoder decoder_;
  FrameAnalysis analysis_;
  VideoTrace trace_;
};

}  // namespace

VideoTrace make_video_trace(FrameSource& source, const VideoTraceOptions& options) {
  TraceBuilder builder(options);
  long n = 0;
  while (options.max_frames == 0 || n < options.max_frames) {
    auto pictures = source.next();
    if (!pictures) break;
    builder.add(*pictures);
    ++n;
  }
  if (n == 0) throw InputError("", "", "the source gave no frame");
  return builder.finish();
}

std::string format_video_trace(const VideoTrace& trace) {
  fmt::memory_buffer out;
  const auto put = fmt::appender(out);
  fmt::format_to(put, "frame,type,motion_px,mv_count,mask_density,feedback_density");
  for (int d : kMaskDistances) fmt::format_to(put, ",mask_d{}", d);
  for (const Size& s : trace.sizes) fmt::format_to(put, ",bytes_{}", to_string(s));
  if (trace.host_times) {
    for (const Size& s : trace.sizes) fmt::format_to(put, ",host_encode_ms_{}", to_string(s));
    fmt::format_to(put, ",host_decode_ms");
  }
  fmt::format_to(put, "\n");
  for (std::size_t i = 0; i < trace.rows.size(); ++i) {
    const auto& r = trace.rows[i];
    fmt::format_to(put, "{},{},{:.4f},{},{:.6f},{:.6f}", i, r.type, r.motion_px, r.mv_count, r.mask_density,
                   r.feedback_density);
    for (const auto& m : r.mask_d) m ? fmt::format_to(put, ",{:.6f}", *m) : fmt::format_to(put, ",");
    for (std::size_t b : r.bytes) fmt::format_to(put, ",{}", b);
    if (trace.host_times) {
      for (double ms : r.encode_ms) fmt::format_to(put, ",{:.3f}", ms);
      fmt::format_to(put, ",{:.3f}", r.decode_ms);
    }
    fmt::format_to(put, "\n");
  }
  return fmt::to_string(out);
}

}  // namespace coinfer::video
