#pragma once
/// A per-frame trace (frame_trace.hpp) measured on a real classifier and real images: the 8x8
/// handwritten digits scikit-learn ships (sim/functional/dataset.hpp), for Tan & Cao's CBO.
///
/// What is measured, all seeded (the same options give the same bytes):
/// 1. The images are split (split_dataset, `trace_fraction` held out). Two models are trained on the
///    rest with the functional trainer: the "NPU" model digits_mlp (64-64-10), whose weights are then
///    quantized to `npu_bits` bits (quantize_symmetric with one scale per output channel; biases stay
///    fp32, as NPUs keep 32-bit accumulators). The defaults (2 bits after 20 epochs) leave it far
///    below its fp32 accuracy and overconfident (measured: examples/cbo/README.md). The "server"
///    model is digits_cnn in fp32 (more compute per image: a convolution before its two fc layers),
///    trained on every training image as it would receive it at every offload resolution (step 4,
///    without the PNG round trip), as a server serving several resolutions would be.
/// 2. The held-out images are the frames, in the split's (shuffled) order, cut into pseudo-videos of
///    `frames_per_video` consecutive frames (ids v000, v001, ...). Consecutive frames are unrelated
///    images: there is no temporal correlation in these videos.
/// 3. Per frame: the NPU model's raw confidence is its largest softmax output and it is correct when
///    that class is the label. The trace also carries the label and the NPU's feature vector (its
///    10 outputs before the softmax, `score_0` ... `score_9`), which `platt-vector` calibrates on.
/// 4. Per offload resolution r (px): the 8x8 digit stands for the full frame at the largest
///    resolution R, so a frame at r keeps r / R of its linear detail. The frame sent is the digit
///    area-averaged to g = max(1, round(8 r / R)) pixels a side and scaled up to r x r by bilinear
///    interpolation (resize.hpp); for R = 224 the resolutions 45, 90, 134, 179, 224 keep 2, 3, 5, 6, 8
///    pixels of detail. Its size is the bytes of its real PNG encoding (png_compress: 8-bit grey,
///    libpng). The server decodes that PNG, area-averages it to its 8x8 input and is correct when its
///    largest output is the label; so lower resolutions lose accuracy because detail is lost, not
///    because a number says so.
///
///     DigitsTraceOptions o;  o.seed = 1;
///     DigitsTrace t = make_digits_trace(o);        // t.trace.frames.size() == 899 for the defaults
///     std::string csv = format_frame_trace(t.trace);
#include <cstdint>
#include <string>
#include <vector>

#include "schedulers/cbo/frame_trace.hpp"
#include "sim/kernels/tensor.hpp"

namespace coinfer::cbo {

struct DigitsTraceOptions {
  std::string data;             ///< the digits CSV; "" for default_digits_path()
  std::uint64_t seed = 1;       ///< split, weights, training order (models from derived seeds)
  double trace_fraction = 0.5;  ///< images held out as frames, in (0, 1)
  int npu_bits = 2;             ///< NPU weight precision, 2..8
  /// Pixels of detail a side the NPU sees, 1..8: every image it is trained on and classifies is
  /// area-averaged to this many pixels a side and scaled back up to 8 x 8 bilinearly (as the frames
  /// sent at low resolution are, step 4). 8 (the default) gives it the image as it is; fewer make
  /// the frames harder for it, a knob on its accuracy that leaves the server's columns as they are.
  std::int64_t npu_detail_px = 8;
  std::int64_t npu_epochs = 20;  ///< training epochs of the NPU model (before quantization)
  std::int64_t server_epochs = 10;
  std::int64_t frames_per_video = 30;
  std::vector<int> resolutions_px{45, 90, 134, 179, 224};  ///< increasing, 1..4096
};

struct DigitsTraceSummary {
  std::string data;  ///< the file read
  std::size_t train_images = 0;
  double npu_fp32_accuracy = 0;  ///< the NPU model on the frames before quantization
  double npu_accuracy = 0;       ///< after quantization (the trace's `correct` column)
  double npu_mean_confidence = 0;
  std::vector<double> server_accuracy;  ///< per resolution
  std::vector<double> mean_size_bytes;  ///< per resolution
  std::vector<std::int64_t> detail_px;  ///< per resolution: the g above
};

struct DigitsTrace {
  FrameTrace trace;
  DigitsTraceSummary summary;
};

/// Throws `InputError("", "<option>", ...)` for a bad option (the option's name as in the struct,
/// with '-' for '_': "npu-bits"), and load_digits' errors for the data file.
DigitsTrace make_digits_trace(const DigitsTraceOptions& options);

/// The NPU's view of a (1, 8, 8) digit at `detail_px` pixels of detail a side (the option above):
/// the digit itself at 8.
Tensor digits_npu_view(const Tensor& digit, std::int64_t detail_px);
/// g = max(1, round(8 r / R)): pixels of detail a side kept at resolution r when R is the full one.
std::int64_t digits_detail_px(int px, int full_px);
/// The (1, px, px) frame sent at resolution px: `digit` (1, 8, 8) area-averaged to g x g, then
/// bilinear up to px x px.
Tensor digits_frame(const Tensor& digit, int px, int full_px);

}  // namespace coinfer::cbo
