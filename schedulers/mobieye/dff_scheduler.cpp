#include "schedulers/mobieye/dff_scheduler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "schedulers/mobieye/dff_model.hpp"
#include "sim/calibration/calibrate.hpp"
#include "sim/core/error.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/models/zoo.hpp"
#include "sim/plan/plan.hpp"
#include "sim/platform/platform.hpp"
#include "sim/profile/host_estimate.hpp"

namespace coinfer::mobieye {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const Device& device_or_throw(const Platform& platform, const std::string& name, const std::string& key) {
  if (const auto d = platform.device_index_or_null(name)) return platform.devices[*d];
  throw InputError("", "scheduler." + key,
                   fmt::format("unknown device '{}' in platform '{}'", name, platform.name));
}

// A zoo model's time on a device: the cost model over the nominal host estimate, at `shape`.
double model_time_s(const std::string& model, const std::vector<std::int64_t>& shape, const Device& device,
                    const std::string& key) {
  Graph graph;
  try {
    graph = with_input_shape(load_model(model), shape);
  } catch (const InputError& e) {
    throw InputError("", "scheduler." + key, e.message());
  }
  const CostModel cost(graph, estimate_host_profile(graph, HostSpeed::nominal()));
  return cost.total_time_s(device.calibration);
}

double encode_s(const DffParams& p, const Device& phone) {
  if (p.encode_ms > 0.0) return p.encode_ms / 1e3;
  const auto& codec = phone.calibration->codec;
  if (!codec || std::isnan(codec->encode_ms))
    throw InputError(
        "", "scheduler.encode_ms",
        fmt::format("the phone '{}' has no codec.encode_ms in its calibration ({}); give encode_ms",
                    phone.name, phone.calibration->file));
  return codec->encode_ms / 1e3;
}

// The scheduler's trace: its own errors (file, line, column) under the key that named it.
VideoTrace read_trace_param(const std::string& path) {
  try {
    return read_video_trace(path);
  } catch (const InputError& e) {
    throw InputError(
        "", "scheduler.trace_file",
        fmt::format("{} (expected a video trace, as `coinfer make-trace video` writes)", e.what()));
  }
}

double mean(const std::vector<double>& xs) {
  if (xs.empty()) return kNaN;
  double s = 0.0;
  for (double x : xs) s += x;
  return s / static_cast<double>(xs.size());
}

}  // namespace

DffScheduler::DffScheduler(bool asynchronous, DffParams params)
    : asynchronous_(asynchronous), params_(std::move(params)) {
  trace_ = read_trace_param(params_.trace_file);
  if (!params_.resolution.empty()) {
    try {
      size_ = trace_.size_index(params_.resolution, "scheduler.resolution");
    } catch (const InputError& e) {
      throw InputError("", "scheduler.resolution",
                       fmt::format("{} (trace {})", e.message(), params_.trace_file));
    }
  }
  if (!params_.ssi_file.empty()) ssi_ = read_ssi_profile(params_.ssi_file);
  policy_ = params_.vds ? vds(*params_.vds, trace_.motion()) : static_interval(params_.interval);
}

std::vector<Plan> DffScheduler::plan_variants(std::vector<Plan>, const Platform& platform) {
  const Device& phone = device_or_throw(platform, params_.phone, "phone");
  (void)device_or_throw(platform, params_.decoder, "decoder");
  const Device& gpu = device_or_throw(platform, params_.gpu, "gpu");
  if (!platform.network_index_or_null(params_.network))
    throw InputError("", "scheduler.network",
                     fmt::format("unknown network '{}' in platform '{}'", params_.network, platform.name));
  const Device& key_gpu = asynchronous_ ? device_or_throw(platform, params_.key_gpu, "key_gpu") : gpu;
  inter_s_ = params_.inter_ms > 0.0
                 ? params_.inter_ms / 1e3
                 : model_time_s(params_.inter_model, params_.inter_input, gpu, "inter_model");
  featnet_s_ = params_.key_ms > 0.0
                   ? params_.key_ms / 1e3
                   : model_time_s(params_.key_model, params_.key_input, key_gpu, "key_model");
  key_s_ = featnet_s_;  // dff: the key model on `gpu` itself
  encode_s_ = encode_s(params_, phone);
  const std::string& net = params_.network;
  std::vector<Plan> out;
  out.push_back(
      Plan{"capture",
           "",
           {compute_task("encode", params_.phone, encode_s_, {}, "H.264 encode"),
            transfer_task("upload", params_.phone, params_.decoder, 1.0, {"encode"}, "encoded frame", net),
            compute_task("decode", params_.decoder, params_.decode_ms / 1e3, {"upload"}, "decode")}});
  out.push_back(Plan{"inter", "", {compute_task("inter", params_.gpu, inter_s_, {}, params_.inter_model)}});
  if (!asynchronous_)
    out.push_back(Plan{"key", "", {compute_task("key", params_.gpu, key_s_, {}, params_.key_model)}});
  result_variant_ = out.size();
  out.push_back(Plan{
      "result",
      "",
      {transfer_task("result", params_.decoder, params_.phone, params_.result_bytes, {}, "boxes", net)}});
  return out;
}

DffScheduler::FrameInfo& DffScheduler::info(std::size_t frame) {
  if (frame >= frames_.size()) frames_.resize(frame + 1);
  return frames_[frame];
}

FrameDecision DffScheduler::on_frame(const SchedulerView& view) {
  const std::size_t k = view.frame;
  if (k >= trace_.frames.size())
    throw InputError(
        params_.trace_file, "",
        fmt::format("the workload releases frame {} but the trace has {} frames", k, trace_.frames.size()));
  FrameInfo& f = info(k);
  f.key = policy_->is_key(k);
  if (f.key) last_key_ = k;
  if (!asynchronous_) f.map = last_key_;
  FrameDecision d;
  d.variant = kCapture;
  d.transfer_bytes = {{"upload", upload_bytes(k)}};
  return d;
}

double DffScheduler::upload_bytes(std::size_t frame) const {
  if (!params_.frame_bits_per_pixel) return trace_.frames[frame].bytes[size_];
  const FrameSize& s = trace_.sizes[size_];
  return *params_.frame_bits_per_pixel * s.width * s.height / 8.0;
}

Continuation DffScheduler::inter_pass(std::size_t frame, std::size_t map) {
  FrameInfo& f = info(frame);
  f.map = map;
  if (!asynchronous_ && f.key) return Continuation::run(kKey);
  if (!ssi_) return Continuation::run(kInter);
  f.density = trace_.mask_density_at_age(frame, frame - map);
  f.ratio = ssi_->ratio_at(f.density);
  return Continuation::run(kInter, {}, {{"inter", inter_s_ * f.ratio}});
}

std::optional<std::size_t> DffScheduler::newest_map(std::size_t frame) const {
  if (!first_map_ || *first_map_ > frame) return std::nullopt;
  for (std::size_t m = std::min(frame, map_ready_.size() - 1);; --m)
    if (map_ready_[m]) return m;
}

Continuation DffScheduler::on_plan_end(std::size_t frame, const SchedulerView& view) {
  const std::size_t variant = view.frames[frame].variant;
  FrameInfo& f = info(frame);
  if (variant == result_variant_) {
    f.result_s = view.now_s - f.decoded_s - f.inference_s;
    return Continuation::finish();
  }
  if (variant != kCapture) {  // the GPU pass ended: results go back
    f.inference_s = view.now_s - f.decoded_s;
    return Continuation::run(result_variant_);
  }
  f.decoded_s = view.now_s;
  f.upload_s = view.now_s - view.frames[frame].start_s - encode_s_ - params_.decode_ms / 1e3;
  if (!asynchronous_) return inter_pass(frame, *f.map);
  if (f.key) pending_jobs_.push_back(frame);
  if (const auto map = newest_map(frame)) return inter_pass(frame, *map);
  held_.push_back(frame);
  return Continuation::hold();
}

std::vector<std::pair<std::size_t, Continuation>> DffScheduler::take_decisions(const SchedulerView&) {
  std::vector<std::pair<std::size_t, Continuation>> out;
  std::vector<std::size_t> still;
  for (auto k : held_) {
    if (const auto map = newest_map(k))
      out.emplace_back(k, inter_pass(k, *map));
    else
      still.push_back(k);
  }
  held_ = std::move(still);
  return out;
}

std::vector<BackgroundJob> DffScheduler::take_background(const SchedulerView&) {
  std::vector<BackgroundJob> jobs;
  for (auto k : pending_jobs_)
    jobs.push_back({params_.key_gpu, featnet_s_, k, fmt::format("{} (key frame {})", params_.key_model, k)});
  pending_jobs_.clear();
  return jobs;
}

void DffScheduler::on_background_end(std::size_t tag, const SchedulerView&) {
  if (map_ready_.size() <= tag) map_ready_.resize(tag + 1, false);
  map_ready_[tag] = true;
  if (!first_map_) first_map_ = tag;
}

std::vector<std::string> DffScheduler::frame_value_names() const {
  return {"feature_age", "key", "upload_ms", "inference_ms", "result_ms"};
}

std::vector<double> DffScheduler::frame_values(std::size_t frame) const {
  if (frame >= frames_.size()) return {kNaN, kNaN, kNaN, kNaN, kNaN};
  const FrameInfo& f = frames_[frame];
  return {f.map ? static_cast<double>(frame - *f.map) : kNaN, f.key ? 1.0 : 0.0, f.upload_s * 1e3,
          f.inference_s * 1e3, f.result_s * 1e3};
}

std::map<std::string, double> DffScheduler::summary() const {
  std::map<std::string, double> m;
  std::vector<double> ages, uploads, upload_bytes_sent, inference, results, densities, ratios, delays;
  std::vector<std::size_t> age_list;
  std::vector<bool> keys;
  std::map<std::size_t, std::size_t> first_use;  // key frame -> first frame that used its map
  for (std::size_t k = 0; k < frames_.size(); ++k) {
    const FrameInfo& f = frames_[k];
    keys.push_back(f.key);
    if (!std::isnan(f.upload_s)) {
      uploads.push_back(f.upload_s * 1e3);
      upload_bytes_sent.push_back(upload_bytes(k));
    }
    if (!std::isnan(f.inference_s)) inference.push_back(f.inference_s * 1e3);
    if (!std::isnan(f.result_s)) results.push_back(f.result_s * 1e3);
    if (!std::isnan(f.density)) densities.push_back(f.density), ratios.push_back(f.ratio);
    if (!f.map) continue;
    ages.push_back(static_cast<double>(k - *f.map));
    age_list.push_back(k - *f.map);
    first_use.emplace(*f.map, k);
  }
  std::optional<std::size_t> first_key;
  for (std::size_t k = 0; k < keys.size(); ++k)
    if (keys[k] && !first_key) first_key = k;
  for (const auto& [key, frame] : first_use)
    if (key != first_key) delays.push_back(static_cast<double>(frame - key));
  // A metric without a value (no frame measured it) is left out: JSON has no NaN.
  auto put = [&m](const char* name, double value) {
    if (!std::isnan(value)) m[name] = value;
  };
  auto max_of = [](const std::vector<double>& xs) {
    return xs.empty() ? kNaN : *std::max_element(xs.begin(), xs.end());
  };
  const auto key_count = static_cast<double>(std::count(keys.begin(), keys.end(), true));
  m["key_frames"] = key_count;
  if (key_count > 0) m["average_key_interval"] = average_key_interval(keys);
  put("mean_feature_age", mean(ages));
  put("max_feature_age", max_of(ages));
  put("feature_delay_frames", mean(delays));
  put("feature_delay_frames_max", max_of(delays));
  m["eq41_delay_frames"] = feature_delay_frames(featnet_s_, inter_s_, params_.other_ms / 1e3);
  // eq. 4.1's general form at the spacing the frames actually reached the GPU with: T_FlowNet +
  // T_other is the mean time between consecutive decode ends (a frame stream slower than the GPU
  // leaves FeatNet more time per frame than the inter pass alone).
  std::vector<double> decoded;
  for (const FrameInfo& f : frames_)
    if (f.decoded_s > 0.0) decoded.push_back(f.decoded_s);
  if (decoded.size() >= 2 && decoded.back() > decoded.front()) {
    const double spacing_s = (decoded.back() - decoded.front()) / static_cast<double>(decoded.size() - 1);
    m["eq41_delay_frames_at_spacing"] = feature_delay_frames(featnet_s_, spacing_s);
    m["mean_frame_spacing_ms"] = spacing_s * 1e3;
  }
  if (params_.delay) m["delay"] = *params_.delay;
  m["encode_ms"] = encode_s_ * 1e3;
  put("mean_upload_ms", mean(uploads));
  put("mean_upload_bytes", mean(upload_bytes_sent));
  m["decode_ms"] = params_.decode_ms;
  put("mean_inference_ms", mean(inference));
  put("mean_result_ms", mean(results));
  m["inter_ms"] = inter_s_ * 1e3;
  m["key_ms"] = featnet_s_ * 1e3;
  if (params_.map_table && !age_list.empty())
    m["effective_map"] = effective_map(*params_.map_table, age_list);
  if (ssi_) {
    put("ssi_mean_density", mean(densities));
    put("ssi_mean_ratio", mean(ratios));
  }
  return m;
}

}  // namespace coinfer::mobieye
