#include "schedulers/mobieye/dff_params.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::mobieye {
namespace {

std::vector<std::int64_t> shape_of(const Json& j, const std::string& key) {
  const std::string path = "scheduler." + key;
  if (!j.is_array() || j.empty())
    throw InputError("", path, "expected a list of dimensions, e.g. [6, 320, 512]");
  std::vector<std::int64_t> shape;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number_integer() || j[i].get<std::int64_t>() < 1)
      throw InputError("", fmt::format("{}[{}]", path, i), "expected an integer >= 1");
    shape.push_back(j[i].get<std::int64_t>());
  }
  return shape;
}

std::string string_or(const Json& j, const char* key, std::string fallback) {
  return j.at(key).is_null() ? std::move(fallback) : j.at(key).get<std::string>();
}

}  // namespace

ParamSchema dff_param_schema() {
  return ParamSchema{
      ParamSpec::path("trace_file", "video trace CSV (schedulers/mobieye/video_trace.hpp)").mandatory(),
      ParamSpec::string("resolution", "frame size WxH, one of the trace's bytes_<W>x<H> (unset: its first)"),
      ParamSpec::string("phone", "the phone: encodes and uploads").with_default("pixel2"),
      ParamSpec::string("decoder", "the server device that decodes and returns results")
          .with_default("server"),
      ParamSpec::string("gpu", "the GPU running inter frames (and dff's key frames)").with_default("gtx1080"),
      ParamSpec::string("key_gpu", "adff: the GPU running the key frames' FeatNet").with_default("gtx_titan"),
      ParamSpec::string("network", "the network joining phone and decoder").with_default("lte"),
      ParamSpec::string("inter_model", "zoo model of the inter pass (FlowNet + propagation)")
          .with_default("flownet_dff"),
      ParamSpec::value("inter_input", "input shape of the inter model (default [6, 320, 512])"),
      ParamSpec::string("key_model", "zoo model of the key-frame FeatNet").with_default("resnet101"),
      ParamSpec::value("key_input", "input shape of the key model (default [3, 600, 1000])"),
      ParamSpec::number("inter_ms",
                        "fixed inter-pass time (unset: the inter model's on gpu, from the cost model)")
          .range(1e-6, 1e6),
      ParamSpec::number("key_ms",
                        "fixed FeatNet time (unset: the key model's on its GPU, from the cost model)")
          .range(1e-6, 1e6),
      ParamSpec::integer("interval", "static key-frame interval, frames").with_default(10).range(1, 100000),
      ParamSpec::value("vds", "VDS key-frame policy {mv_max, fi_min, fi_max, mv_min?} instead of interval"),
      ParamSpec::integer("delay", "the configured feature delay D_f, <= the key interval (reported only)")
          .range(0, 100000),
      ParamSpec::number("encode_ms",
                        "phone encode per frame (unset: the phone calibration's codec.encode_ms)")
          .range(1e-6, 1e6),
      ParamSpec::number("decode_ms", "server decode per frame ([Mao-PhD §4.6.2]: 3.9)")
          .with_default(3.9)
          .range(0, 1e6),
      ParamSpec::number("other_ms", "eq. 4.1's other per-frame work, for eq41_delay_frames")
          .with_default(0)
          .range(0, 1e6),
      ParamSpec::number("result_bytes", "detection results returned per frame (not in the source: an input)")
          .with_default(1000)
          .range(1, 1e12),
      ParamSpec::number("frame_bits_per_pixel",
                        "upload bpp x W x H / 8 bytes per frame instead of the trace's bytes "
                        "([Mao-PhD §4.6.2]: 1.611; unset: the trace's)")
          .range(1e-6, 1e3),
      ParamSpec::value("map_table",
                       "mAP by feature age {source, by_age: [[age, mAP], ...]} for effective_map"),
      ParamSpec::path("ssi_file", "SSI profile CSV density,dense_ms,ssi_ms,time_ratio (unset: dense)"),
  };
}

DffParams DffParams::from_json(const Json& p) {
  DffParams r;
  r.trace_file = p.at("trace_file").get<std::string>();
  r.resolution = string_or(p, "resolution", "");
  r.phone = p.at("phone").get<std::string>();
  r.decoder = p.at("decoder").get<std::string>();
  r.gpu = p.at("gpu").get<std::string>();
  r.key_gpu = p.at("key_gpu").get<std::string>();
  r.network = p.at("network").get<std::string>();
  r.inter_model = p.at("inter_model").get<std::string>();
  r.key_model = p.at("key_model").get<std::string>();
  if (!p.at("inter_input").is_null()) r.inter_input = shape_of(p.at("inter_input"), "inter_input");
  if (!p.at("key_input").is_null()) r.key_input = shape_of(p.at("key_input"), "key_input");
  r.interval = p.at("interval").get<int>();
  if (!p.at("vds").is_null()) r.vds = VdsParams::from_json(p.at("vds"), "", "scheduler.vds");
  if (!p.at("delay").is_null()) {
    r.delay = p.at("delay").get<int>();
    const int bound = r.vds ? r.vds->fi_min : r.interval;
    if (*r.delay > bound)
      throw InputError(
          "", "scheduler.delay",
          fmt::format("expected <= {} ({}), got {}", r.vds ? "vds.fi_min" : "interval", bound, *r.delay));
  }
  r.inter_ms = p.at("inter_ms").is_null() ? 0.0 : p.at("inter_ms").get<double>();
  r.key_ms = p.at("key_ms").is_null() ? 0.0 : p.at("key_ms").get<double>();
  r.encode_ms = p.at("encode_ms").is_null() ? 0.0 : p.at("encode_ms").get<double>();
  r.decode_ms = p.at("decode_ms").get<double>();
  r.other_ms = p.at("other_ms").get<double>();
  r.result_bytes = p.at("result_bytes").get<double>();
  if (!p.at("frame_bits_per_pixel").is_null())
    r.frame_bits_per_pixel = p.at("frame_bits_per_pixel").get<double>();
  if (!p.at("map_table").is_null())
    r.map_table = MapTable::from_json(p.at("map_table"), "", "scheduler.map_table");
  r.ssi_file = string_or(p, "ssi_file", "");
  return r;
}

}  // namespace coinfer::mobieye
