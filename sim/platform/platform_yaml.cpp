#include "sim/platform/platform_yaml.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/calibration/calibration_json.hpp"
#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/platform/network_keys.hpp"
#include "sim/platform/trace_formats.hpp"
#include "sim/platform/trace_window.hpp"
#include "sim/scenario/yaml_json.hpp"

namespace coinfer {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kTopKeys{"name", "notes", "description", "devices", "networks"};
const std::vector<std::string> kDeviceKeys{"name",       "calibration",   "role",        "slots",
                                           "time_scale", "op_time_scale", "batch_lanes", "count",
                                           "queue",      "batching",      "drop_expired"};
// A platform holds at most kMaxDevices devices, however declared (`count: N` or one by one). Routes
// are built per pair a run uses and SimGrid joins them from each endpoint's links (star zones), so
// memory grows with the devices: a device on a shared network is a SimGrid host with its links
// (about 12 KB), one whose links are all its own (an access network's member) a few KB, and each
// user adds its plan (docs/guide/populations.md, "Speed and memory" and "Limits").
constexpr std::int64_t kMaxDevices = 16384;
// Network kinds, network / link / bandwidth keys: the table of network_keys.hpp.
const std::vector<std::string> kKinds = network_kind_names();
const std::vector<std::string> kModels = bandwidth_models();
const std::vector<std::string> kWakeUpPer{"radio", "channel"};

// Accepted ranges (README "Platforms and simulation", platform ranges). Why each bound:
// - Rates (rate, mean, floor, low, high, values, trace points) in [1, 1e12] bps: 1 Tb/s is beyond
//   any link; at 1 bps a 100 MB tensor still arrives within the 1e9 s time horizon (8e8 s),
//   while SimGrid's max-min solver (precision 1e-5) stays exact. A standard deviation in [0, 1e12].
// - Latencies and wake-up times in [0, 3600] s: no link takes an hour to deliver its first bit
//   or to wake its radio (a geostationary hop takes 0.25 s).
// - Times of day (power_save_timeout_s, trace times) in [0, 1e9] s, the horizon of a run (about
//   32 years; a double resolves it to 0.2 us).
// - A period (one random draw, or a trace repeat) in [1e-3, 1e9] s: segments are generated one
//   per period over the simulated time, so a shorter period would flood the replay (1e-300 s
//   would never advance the clock); no radio changes its rate faster than every millisecond.
// kMinRate_bps, kMaxRate_bps and kMaxTime_s are those of trace_formats.hpp.
constexpr double kMaxLatency_s = 3600.0;
constexpr double kMinPeriod_s = 1e-3;

NetworkKind kind_from_name(const std::string& name) {
  if (name == "wifi") return NetworkKind::Wifi;
  if (name == "wifi_direct") return NetworkKind::WifiDirect;
  if (name == "wired") return NetworkKind::Wired;
  if (name == "lte") return NetworkKind::Lte;
  if (name == "3g") return NetworkKind::Cellular3g;
  return NetworkKind::Cellular4g;
}

// Names become SimGrid host and link names joined with '/', '@', '~' and '#'.
void check_name(const std::string& name, const std::string& path) {
  const bool ok = !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '-' || c == '.';
  });
  if (!ok)
    throw InputError("", path,
                     fmt::format("'{}' is not a valid name (letters, digits, '_', '-', '.')", name));
}

// A rate given in bps (or Mbps when `mbps`), in bps, within [kMinRate_bps, kMaxRate_bps].
double checked_rate(double v, bool mbps, const std::string& path) {
  if (!(v > 0.0)) throw InputError("", path, fmt::format("expected a rate > 0, got {}", v));
  const double bps = mbps ? v * 1e6 : v;
  if (!(bps >= kMinRate_bps && bps <= kMaxRate_bps))
    throw InputError("", path,
                     mbps ? fmt::format("expected a rate in [1e-06, 1e+06] Mbps, got {}", v)
                          : fmt::format("expected a rate in [1, 1e+12] bps, got {}", v));
  return bps;
}

// A rate written as `<stem>_bps` or `<stem>_mbps` (exactly one), in range.
std::optional<double> optional_rate(const Json& obj, const std::string& stem, const std::string& path) {
  const Json* bps = json_find(obj, stem + "_bps", path);
  const Json* mbps = json_find(obj, stem + "_mbps", path);
  if (bps != nullptr && mbps != nullptr)
    throw InputError("", join_path(path, stem + "_bps"),
                     fmt::format("give {0}_bps or {0}_mbps, not both", stem));
  if (bps == nullptr && mbps == nullptr) return std::nullopt;
  const auto key = bps != nullptr ? stem + "_bps" : stem + "_mbps";
  const double v = json_as_number(*(bps != nullptr ? bps : mbps), join_path(path, key));
  return checked_rate(v, bps == nullptr, join_path(path, key));
}

double required_rate(const Json& obj, const std::string& stem, const std::string& path) {
  if (auto r = optional_rate(obj, stem, path)) return *r;
  throw InputError("", join_path(path, stem + "_bps"),
                   fmt::format("missing key ({0}_bps or {0}_mbps)", stem));
}

std::vector<double> rate_list(const Json& obj, const std::string& stem, const std::string& path) {
  const bool mbps = json_find(obj, stem + "_mbps", path) != nullptr;
  const auto key = stem + (mbps ? "_mbps" : "_bps");
  auto values = json_number_array(obj, key, path);
  if (values.empty()) throw InputError("", join_path(path, key), "expected at least one rate");
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = checked_rate(values[i], mbps, index_path(join_path(path, key), i));
  return values;
}

std::string resolve(const std::string& base_dir, const std::string& relative) {
  const fs::path p(relative);
  if (p.is_absolute() || base_dir.empty()) return p.lexically_normal().string();
  return (fs::path(base_dir) / p).lexically_normal().string();
}

// The points as a coinfer trace file's lines are checked (trace_formats.hpp).
void check_trace(const std::vector<std::pair<double, double>>& points, const std::string& path) {
  for (std::size_t i = 0; i < points.size(); ++i)
    if (auto problem =
            coinfer_point_problem(points[i].first, points[i].second, i > 0 ? &points[i - 1].first : nullptr);
        !problem.empty())
      throw InputError("", index_path(path, i), std::move(problem));
}

// The trace a `bandwidth` mapping names: a file (`trace` or `file`) in `format`, or `points`.
// Sets `format` to the format read.
TraceSchedule trace_schedule(const Json& obj, const std::string& path, const std::string& base_dir,
                             std::string& trace_file, TraceFormat& format) {
  const Json* trace = json_find(obj, "trace", path);
  const Json* file = json_find(obj, "file", path);
  const Json* points = json_find(obj, "points", path);
  if (trace != nullptr && file != nullptr)
    throw InputError("", join_path(path, "trace"), "give the trace file as 'trace' or 'file', not both");
  if ((trace == nullptr && file == nullptr) == (points == nullptr))
    throw InputError("", path, "a trace needs either 'file' or 'points' (not both)");
  const auto format_name = json_string_or(obj, "format", path, "coinfer");
  format = trace_format_from_name(format_name, join_path(path, "format"));
  TraceReadOptions options;
  if (json_find(obj, "bin_ms", path) != nullptr && format != TraceFormat::Mahimahi)
    throw InputError("", join_path(path, "bin_ms"), "bin_ms applies to format: mahimahi only");
  options.bin_ms = static_cast<int>(json_int_or(obj, "bin_ms", path, options.bin_ms, 1, 3600000));
  TraceSchedule s;
  if (points == nullptr) {
    const std::string key = trace != nullptr ? "trace" : "file";
    const auto name = json_string(obj, key, path);
    trace_file = resolve(base_dir, name);
    if (std::error_code ec; !fs::is_regular_file(trace_file, ec))  // a name too long is not found either
      throw InputError("", join_path(path, key),
                       fmt::format("file '{}' not found (looked for '{}')", name, trace_file));
    s = read_trace_file(trace_file, format, options);
  } else {
    if (format != TraceFormat::Coinfer)
      throw InputError("", join_path(path, "points"), "points are (time_s, rate_bps): format coinfer only");
    const auto rows = json_number_matrix(obj, "points", path);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].size() != 2)
        throw InputError("", index_path(join_path(path, "points"), i), "expected [time_s, rate_bps]");
      s.points.emplace_back(rows[i][0], rows[i][1]);
    }
    check_trace(s.points, join_path(path, "points"));
    s.period_s = coinfer_period_s(s.points);
  }
  if (s.points.empty()) throw InputError("", path, "the trace has no points");
  return s;
}

// `bandwidth: {model: trace, ...}` or `{trace: FILE, format, loop, start_s, scale, bin_ms}`
// (network_keys.cpp): the schedule read, windowed and scaled (trace_window.hpp).
BandwidthModel parse_trace_bandwidth(const Json& obj, const std::string& path, double rate_bps,
                                     const std::string& base_dir) {
  json_reject_unknown_keys(obj, path, bandwidth_keys("trace"));
  BandwidthModel m;
  m.kind = BandwidthModel::Kind::Trace;
  TraceFormat format = TraceFormat::Coinfer;
  TraceSchedule s = trace_schedule(obj, path, base_dir, m.trace_file, format);
  const bool coinfer = format == TraceFormat::Coinfer;
  const double period_s = json_number_or(obj, "period_s", path, 0.0, 0.0, kMaxTime_s);
  if (period_s > 0.0 && period_s < kMinPeriod_s)
    throw InputError("", join_path(path, "period_s"),
                     fmt::format("expected a period of at least {} s (or 0: no repeat)", kMinPeriod_s));
  if (period_s > 0.0 && !(period_s > s.points.back().first))
    throw InputError("", join_path(path, "period_s"), "the repeat period must exceed the last trace time");
  // Public formats loop by default, as the tools that use them do; coinfer's own format repeats
  // only with a period_s (or loop: true).
  const bool loop = json_bool_or(obj, "loop", path, period_s > 0.0 || !coinfer);
  if (period_s > 0.0 && !loop)
    throw InputError("", join_path(path, "loop"), "period_s repeats the trace: drop it or loop: true");
  if (period_s > 0.0) s.period_s = period_s;
  if (loop && !(s.period_s >= kMinPeriod_s))
    throw InputError("", join_path(path, "loop"),
                     fmt::format("the trace lasts {} s: a repeat period needs at least {} s (give period_s)",
                                 s.period_s, kMinPeriod_s));
  TraceWindow w;
  w.loop = loop;
  w.start_s = json_number_or(obj, "start_s", path, 0.0, 0.0, kMaxTime_s);
  w.scale = json_number_or(obj, "scale", path, 1.0, 0.0, 1e6);
  if (!(w.scale > 0.0)) throw InputError("", join_path(path, "scale"), "expected a factor > 0");
  // Before a coinfer trace's first point the link's nominal rate holds: part of the window.
  if (s.points.front().first > 0.0 && (w.start_s > 0.0 || w.scale != 1.0))
    s.points.insert(s.points.begin(), {0.0, rate_bps});
  const TraceSchedule out = apply_trace_window(s, w);
  for (const auto& [t, r] : out.points)
    if (!(r <= kMaxRate_bps))
      throw InputError("", join_path(path, "scale"), fmt::format("a scaled rate exceeds 1e+12 bps: {}", r));
  m.trace = out.points;
  m.period_s = out.period_s;
  return m;
}

BandwidthModel parse_bandwidth(const Json& obj, const std::string& path, double rate_bps,
                               const std::string& base_dir) {
  BandwidthModel m;
  // `{trace: FILE, ...}` spells `{model: trace, file: FILE, ...}`.
  const bool trace_spelling =
      json_find(obj, "model", path) == nullptr && json_find(obj, "trace", path) != nullptr;
  const auto model = trace_spelling ? std::string("trace") : json_enum(obj, "model", path, kModels);
  if (model == "constant") {
    json_reject_unknown_keys(obj, path, bandwidth_keys(model));
    return m;
  }
  if (model == "trace") return parse_trace_bandwidth(obj, path, rate_bps, base_dir);
  m.period_s = json_number(obj, "period_s", path, 0.0, kMaxTime_s);
  if (!(m.period_s > 0.0)) throw InputError("", join_path(path, "period_s"), "expected a period > 0");
  if (m.period_s < kMinPeriod_s)
    throw InputError("", join_path(path, "period_s"),
                     fmt::format("expected a period in [{}, 1e+09] s, got {}", kMinPeriod_s, m.period_s));
  if (model == "normal") {
    json_reject_unknown_keys(obj, path, bandwidth_keys(model));
    m.kind = BandwidthModel::Kind::Normal;
    m.mean_bps = optional_rate(obj, "mean", path).value_or(rate_bps);
    // A zero standard deviation is allowed (constant draws), so read it as a number >= 0.
    const bool sd_mbps = json_find(obj, "stddev_mbps", path) != nullptr;
    m.stddev_bps = json_number(obj, sd_mbps ? "stddev_mbps" : "stddev_bps", path, 0.0,
                               sd_mbps ? kMaxRate_bps / 1e6 : kMaxRate_bps) *
                   (sd_mbps ? 1e6 : 1.0);
    m.floor_bps = required_rate(obj, "floor", path);
  } else if (model == "uniform") {
    json_reject_unknown_keys(obj, path, bandwidth_keys(model));
    m.kind = BandwidthModel::Kind::Uniform;
    m.low_bps = required_rate(obj, "low", path);
    m.high_bps = required_rate(obj, "high", path);
    if (m.high_bps < m.low_bps) throw InputError("", join_path(path, "high_bps"), "expected high >= low");
  } else {
    json_reject_unknown_keys(obj, path, bandwidth_keys(model));
    m.kind = BandwidthModel::Kind::Empirical;
    m.values_bps = rate_list(obj, "values", path);
  }
  return m;
}

LinkSpec parse_link(const Json& obj, const std::string& path, const std::string& base_dir) {
  LinkSpec link;
  link.rate_bps = required_rate(obj, "rate", path);
  link.latency_s = json_number_or(obj, "latency_s", path, 0.0, 0.0, kMaxLatency_s);
  if (const Json* bw = json_find(obj, "bandwidth", path))
    link.bandwidth = parse_bandwidth(*bw, join_path(path, "bandwidth"), link.rate_bps, base_dir);
  return link;
}

std::vector<std::string> member_list(const Json& obj, const std::string& path, const Platform& platform) {
  const Json& arr = json_at(obj, "members", path);
  const auto p = join_path(path, "members");
  if (!arr.is_array()) throw InputError("", p, "expected a list of device names");
  std::vector<std::string> out;
  std::set<std::string> listed;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const auto ip = index_path(p, i);
    if (!arr[i].is_string()) throw InputError("", ip, "expected a device name");
    const auto name = arr[i].get<std::string>();
    std::vector<std::string> named;  // the device, or every device of the group
    if (const auto g = std::find_if(platform.groups.begin(), platform.groups.end(),
                                    [&](const DeviceGroup& x) { return x.name == name; });
        g != platform.groups.end()) {
      for (std::size_t k = 0; k < g->count; ++k) named.push_back(platform.devices[g->first + k].name);
    } else if (platform.device_index_or_null(name)) {
      named.push_back(name);
    } else {
      throw InputError("", ip,
                       fmt::format("unknown device '{}'; devices: {}", name, platform.describe_devices()));
    }
    for (auto& n : named) {
      if (!listed.insert(n).second) throw InputError("", ip, fmt::format("device '{}' is listed twice", n));
      out.push_back(std::move(n));
    }
  }
  return out;
}

Network parse_network(const Json& obj, const std::string& path, const Platform& platform,
                      const std::string& base_dir) {
  Network net;
  net.name = json_string(obj, "name", path);
  check_name(net.name, join_path(path, "name"));
  net.kind = kind_from_name(json_enum(obj, "kind", path, kKinds));
  // Cellular networks always reach a base; a wifi network may (an access point to a server).
  const bool access =
      net.is_cellular() || (net.kind != NetworkKind::Wired && json_find(obj, "base", path) != nullptr);
  json_reject_unknown_keys(obj, path, network_keys_for(net.kind, access));

  net.members = member_list(obj, path, platform);
  const std::size_t min_members = access ? 1 : 2;
  if (net.members.size() < min_members)
    throw InputError("", join_path(path, "members"),
                     fmt::format("expected at least {} devices", min_members));
  if (access) {
    net.base = json_string(obj, "base", path);
    if (!platform.device_index_or_null(net.base))
      throw InputError("", join_path(path, "base"), fmt::format("unknown device '{}'", net.base));
    if (std::find(net.members.begin(), net.members.end(), net.base) != net.members.end())
      throw InputError("", join_path(path, "base"), "the base cannot also be a member");
    for (const auto* side : {"uplink", "downlink"})
      json_reject_unknown_keys(json_at(obj, side, path), join_path(path, side), link_keys());
    net.uplink = parse_link(obj["uplink"], join_path(path, "uplink"), base_dir);
    net.downlink = parse_link(obj["downlink"], join_path(path, "downlink"), base_dir);
  } else {
    net.link = parse_link(obj, path, base_dir);
  }
  net.owner = json_string_or(obj, "owner", path, "");
  if (!net.owner.empty() && !net.has_endpoint(net.owner))
    throw InputError("", join_path(path, "owner"), fmt::format("'{}' is not in the network", net.owner));
  net.wake_up_s = json_number_or(obj, "wake_up_s", path, 0.0, 0.0, kMaxLatency_s);
  if (net.kind == NetworkKind::Wired && net.wake_up_s > 0.0)
    throw InputError("", join_path(path, "wake_up_s"), "wired networks have no radio to wake up");
  if (net.wake_up_s > 0.0) {
    net.power_save_timeout_s = json_number(obj, "power_save_timeout_s", path, 0.0, kMaxTime_s);
  } else {
    net.power_save_timeout_s = json_number_or(obj, "power_save_timeout_s", path,
                                              std::numeric_limits<double>::infinity(), 0.0, kMaxTime_s);
  }
  if (json_find(obj, "wake_up_per", path) != nullptr &&
      json_enum(obj, "wake_up_per", path, kWakeUpPer) == "channel")
    net.wake_up_per = WakeUpPer::Channel;
  net.serialized_radio = json_bool_or(obj, "serialized_radio", path, false);
  return net;
}

// `time_scale: k`: the device is k times slower than its calibration says, for everything it
// computes (op classes, hence pinned model times; sparse convolution; the video codec). Power
// states stay, so its compute energy scales by k too. For sensitivity sweeps over an unstated
// device speed.
void scale_device_times(DeviceCalibration& c, double k) {
  for (auto& [op, scale] : c.op_scale) scale *= k;
  if (c.sparse_model) {
    c.sparse_model->spt_s_per_nonzero *= k;
    c.sparse_model->get_s_per_element *= k;
  }
  if (c.codec) {
    c.codec->encode_ms *= k;  // NaN (not given) stays NaN
    c.codec->decode_ms *= k;
  }
}

// `op_time_scale: {fc: k, ...}`: the named op classes only are k times slower (their op_scale times
// k, after `time_scale`); a pinned model's time moves with its layers of those classes. For sweeping
// how one kind of layer runs on a device, e.g. fully connected layers at batch 1, which a FLOP
// estimate makes too fast on a GPU.
void scale_op_class_times(DeviceCalibration& c, const Json& obj, const std::string& path) {
  const auto p = join_path(path, "op_time_scale");
  const Json& scales = json_at(obj, "op_time_scale", path);
  if (!scales.is_object() || scales.empty())
    throw InputError("", p, "expected a map of op class: k (k > 0), e.g. {fc: 10}");
  json_reject_unknown_keys(scales, p, op_class_names());
  for (const auto& [op, k] : scales.items()) c.op_scale.at(op) *= json_number(scales, op, p, 1e-6, 1e6);
}

Device parse_device(const Json& obj, const std::string& path, const std::string& base_dir) {
  json_reject_unknown_keys(obj, path, kDeviceKeys);
  Device d;
  d.name = json_string(obj, "name", path);
  check_name(d.name, join_path(path, "name"));
  d.role = json_string_or(obj, "role", path, "device");
  d.slots = static_cast<std::size_t>(json_int_or(obj, "slots", path, 1, 1, 1024));
  if (json_find(obj, "queue", path))
    d.queue = json_enum(obj, "queue", path, {"fifo", "edf"}) == "edf" ? QueueDiscipline::Edf
                                                                      : QueueDiscipline::Fifo;
  d.drop_expired = json_bool_or(obj, "drop_expired", path, false);
  if (const Json* b = json_find(obj, "batching", path)) {
    const auto bp = join_path(path, "batching");
    if (!b->is_object()) throw InputError("", bp, "expected a mapping {max_batch, max_wait_ms}");
    json_reject_unknown_keys(*b, bp, {"max_batch", "max_wait_ms"});
    Batching batching;
    batching.max_batch = static_cast<std::size_t>(json_int(*b, "max_batch", bp, 1, 1024));
    batching.max_wait_s = json_number_or(*b, "max_wait_ms", bp, 0.0, 0.0, 1e6) * 1e-3;
    d.batching = std::move(batching);
  }
  const auto calibration = json_string(obj, "calibration", path);
  d.calibration_file = resolve(base_dir, calibration);
  if (std::error_code ec;
      !fs::is_regular_file(d.calibration_file, ec))  // a name too long is not found either
    throw InputError("", join_path(path, "calibration"),
                     fmt::format("file '{}' not found (looked for '{}')", calibration, d.calibration_file));
  d.calibration = load_calibration_file(d.calibration_file);  // errors name the calibration file
  if (json_find(obj, "time_scale", path))
    scale_device_times(d.calibration.edit(), json_number(obj, "time_scale", path, 1e-6, 1e6));
  if (json_find(obj, "op_time_scale", path)) scale_op_class_times(d.calibration.edit(), obj, path);
  // `batch_lanes: L`: a batch of B runs min(B, L) inputs at once (DeviceCalibration::batch_lanes).
  d.calibration.edit().batch_lanes = json_int_or(obj, "batch_lanes", path, 1, 1, 65536);
  return d;
}

Platform parse_platform(const Json& doc, const std::string& file, const std::string& base_dir) {
  if (!doc.is_object()) throw InputError("", "", "expected a mapping with 'devices' and 'networks'");
  json_reject_unknown_keys(doc, "", kTopKeys);
  Platform p;
  p.file = file;
  p.name = json_string_or(doc, "name", "", file.empty() ? "platform" : fs::path(file).stem().string());
  const Json& devices = json_at(doc, "devices", "");
  if (!devices.is_array() || devices.empty())
    throw InputError("", "devices", "expected a non-empty list of devices");
  std::set<std::string> names;  // devices' and groups'
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto path = index_path("devices", i);
    auto d = parse_device(devices[i], path, base_dir);
    const bool group = json_find(devices[i], "count", path) != nullptr;
    const auto count = static_cast<std::size_t>(json_int_or(devices[i], "count", path, 1, 1, kMaxDevices));
    if (p.devices.size() + count > static_cast<std::size_t>(kMaxDevices))
      throw InputError(
          "", group ? join_path(path, "count") : path,
          fmt::format("the platform would have {} devices, over the limit of {} (a run's memory grows "
                      "with its devices and their users' plans)",
                      p.devices.size() + count, kMaxDevices));
    const auto taken = [&](const std::string& name) {
      if (!names.insert(name).second)
        throw InputError("", join_path(path, "name"),
                         group && name != d.name
                             ? fmt::format("count makes the device '{}', a name already taken", name)
                             : fmt::format("duplicate device name '{}'", name));
    };
    taken(d.name);
    if (!group) {
      p.devices.push_back(std::move(d));
      continue;
    }
    p.groups.push_back({d.name, p.devices.size(), count});
    for (std::size_t k = 1; k <= count; ++k) {
      Device copy = d;
      copy.name = d.name + std::to_string(k);
      taken(copy.name);
      p.devices.push_back(std::move(copy));
    }
  }
  const Json* networks = json_find(doc, "networks", "");
  if (networks != nullptr) {
    if (!networks->is_array()) throw InputError("", "networks", "expected a list of networks");
    for (std::size_t i = 0; i < networks->size(); ++i) {
      auto n = parse_network((*networks)[i], index_path("networks", i), p, base_dir);
      if (p.network_index_or_null(n.name))
        throw InputError("", index_path("networks", i) + ".name",
                         fmt::format("duplicate network name '{}'", n.name));
      p.networks.push_back(std::move(n));
    }
  }
  return p;
}

}  // namespace

std::vector<std::pair<double, double>> parse_bandwidth_trace(const std::string& text,
                                                             const std::string& file) {
  return parse_coinfer_trace(text, file).points;
}

Platform platform_from_json(const Json& doc, const std::string& file, const std::string& base_dir) {
  try {
    return parse_platform(doc, file, base_dir);
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw e.with_file(file);
  }
}

namespace {

// The live PlatformFileMemo's platforms by absolute path; null when none lives.
std::map<std::string, Platform>* platform_memo = nullptr;

}  // namespace

PlatformFileMemo::PlatformFileMemo() {
  if (platform_memo) throw std::logic_error("PlatformFileMemo: one already lives");
  platform_memo = new std::map<std::string, Platform>();
}

PlatformFileMemo::~PlatformFileMemo() {
  delete platform_memo;
  platform_memo = nullptr;
}

Platform load_platform_file(const std::string& path) {
  std::string key;
  if (platform_memo) {
    std::error_code ec;
    key = fs::absolute(path, ec).lexically_normal().string();
    if (const auto it = platform_memo->find(key); it != platform_memo->end()) return it->second;
  }
  const Json doc = read_yaml_file(path);
  Platform platform = platform_from_json(doc, path, fs::path(path).parent_path().string());
  if (platform_memo && !key.empty()) platform_memo->emplace(key, platform);
  return platform;
}

}  // namespace coinfer
