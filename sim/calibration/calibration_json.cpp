#include "sim/calibration/calibration_json.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "sim/calibration/calibrate.hpp"
#include "sim/calibration/op_class.hpp"
#include "sim/calibration/profile_import.hpp"
#include "sim/core/error.hpp"

namespace coinfer {

bool is_iso_date(const std::string& s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

namespace {

constexpr std::array<std::pair<DeviceKind, const char*>, 7> kKinds{{
    {DeviceKind::PhoneCpu, "phone_cpu"},
    {DeviceKind::PhoneGpu, "phone_gpu"},
    {DeviceKind::Npu, "npu"},
    {DeviceKind::EdgeBoard, "edge_board"},
    {DeviceKind::GpuServer, "gpu_server"},
    {DeviceKind::CpuServer, "cpu_server"},
    {DeviceKind::Desktop, "desktop"},
}};
constexpr std::array<std::pair<Precision, const char*>, 3> kPrecisions{{
    {Precision::Fp32, "fp32"},
    {Precision::Fp16, "fp16"},
    {Precision::Int8, "int8"},
}};
constexpr std::array<std::pair<const char*, double>, 3> kTimeUnits{{{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}}};

const std::vector<std::string> kTopKeys{"format",     "name",       "kind",  "precision",    "memory_bytes",
                                        "op_scale",   "power",      "radio", "sparse_model", "fit",
                                        "provenance", "references", "notes", "codec"};
const std::vector<std::string> kQuantities{"latency", "train_step"};
const std::vector<std::string> kRadioKeys{"uplink_alpha_mw_per_mbps", "uplink_beta_mw",
                                          "downlink_alpha_mw_per_mbps", "downlink_beta_mw"};

// Limits that catch unit mix-ups (a value written in the wrong unit is off by 1000x).
constexpr double kMaxFigureSeconds = 3600.0;  // one inference / training step: under an hour
constexpr double kMaxDeviceWatts = 2000.0;    // a mW value typed into a W key
constexpr double kMinMemoryBytes = 1 << 20;   // a GB value typed into a bytes key
constexpr double kMaxRadioMilliwatts = 1e5;   // a uW value typed into a mW key
constexpr double kMaxRangeMbps = 1e6;         // a bps value typed into an Mbps key

template <class E, std::size_t N>
std::vector<std::string> enum_names(const std::array<std::pair<E, const char*>, N>& table) {
  std::vector<std::string> out;
  for (const auto& [value, name] : table) out.emplace_back(name);
  return out;
}

template <class E, std::size_t N>
E enum_from_name(const std::array<std::pair<E, const char*>, N>& table, const std::string& name) {
  for (const auto& [value, n] : table)
    if (name == n) return value;
  return table.front().first;  // unreachable: json_enum already checked the name
}

template <class E, std::size_t N>
std::string enum_to_name(const std::array<std::pair<E, const char*>, N>& table, E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "?";
}

double positive_scale(const Json& v, const std::string& path) {
  const double x = json_as_number(v, path);
  if (!(x > 0.0))
    throw InputError("", path,
                     fmt::format("expected a positive number (device time / host time), got {}", x));
  return x;
}

// op_scale: {"default": s, "<class>": s, ...}; every class ends up with a value.
std::map<std::string, double> parse_op_scale(const Json& json, const std::string& path) {
  const auto& obj = json_at(json, "op_scale", path);
  const auto p = join_path(path, "op_scale");
  if (!obj.is_object()) throw InputError("", p, "expected an object of op class -> scale");
  std::vector<std::string> allowed = op_class_names();
  allowed.emplace_back("default");
  json_reject_unknown_keys(obj, p, allowed);
  std::optional<double> fallback;
  if (obj.contains("default")) fallback = positive_scale(obj["default"], join_path(p, "default"));
  std::map<std::string, double> scale;
  for (const auto& name : op_class_names()) {
    if (obj.contains(name))
      scale[name] = positive_scale(obj[name], join_path(p, name));
    else if (fallback)
      scale[name] = *fallback;
    else
      throw InputError("", join_path(p, name), "missing key (list every op class or give \"default\")");
  }
  return scale;
}

PowerStates parse_power(const Json& json, const std::string& path) {
  const auto& obj = json_at(json, "power", path);
  const auto p = join_path(path, "power");
  json_reject_unknown_keys(obj, p, {"idle_w", "busy_w"});
  PowerStates power;
  power.idle_w = json_number(obj, "idle_w", p, 0.0);
  power.busy_w = json_number(obj, "busy_w", p, 0.0);
  for (auto [key, w] : {std::pair{"idle_w", power.idle_w}, std::pair{"busy_w", power.busy_w}})
    if (w > kMaxDeviceWatts)
      throw InputError("", join_path(p, key),
                       fmt::format("{} W is implausible for one device; is the value in mW?", w));
  if (power.busy_w < power.idle_w)
    throw InputError("", join_path(p, "busy_w"),
                     fmt::format("expected busy_w >= idle_w ({} W), got {} W", power.idle_w, power.busy_w));
  return power;
}

// `[low, high]` Mbps with 0 <= low < high.
std::optional<std::array<double, 2>> parse_range_mbps(const Json& obj, std::string_view key,
                                                      const std::string& p) {
  if (!json_find(obj, key, p)) return std::nullopt;
  const auto v = json_number_array(obj, key, p, 2, 0.0, kMaxRangeMbps);
  if (!(v[0] < v[1]))
    throw InputError("", join_path(p, std::string(key)),
                     fmt::format("expected [low, high] Mbps with low < high, got [{}, {}]", v[0], v[1]));
  return std::array<double, 2>{v[0], v[1]};
}

RadioPowerModel parse_radio_model(const Json& obj, const std::string& p) {
  std::vector<std::string> allowed = kRadioKeys;
  allowed.insert(allowed.end(), {"uplink_range_mbps", "downlink_range_mbps", "range_source"});
  json_reject_unknown_keys(obj, p, allowed);
  RadioPowerModel m;
  double* fields[] = {&m.uplink_alpha_mw_per_mbps, &m.uplink_beta_mw, &m.downlink_alpha_mw_per_mbps,
                      &m.downlink_beta_mw};
  for (std::size_t i = 0; i < kRadioKeys.size(); ++i) {
    *fields[i] = json_number(obj, kRadioKeys[i], p, 0.0);
    if (*fields[i] > kMaxRadioMilliwatts)
      throw InputError(
          "", join_path(p, kRadioKeys[i]),
          fmt::format("{} is implausible for a phone radio (mW, mW/Mbps); check the unit", *fields[i]));
  }
  m.uplink_range_mbps = parse_range_mbps(obj, "uplink_range_mbps", p);
  m.downlink_range_mbps = parse_range_mbps(obj, "downlink_range_mbps", p);
  const bool ranged = m.uplink_range_mbps || m.downlink_range_mbps;
  if (json_find(obj, "range_source", p)) {
    if (!ranged)
      throw InputError("", join_path(p, "range_source"),
                       "a source for no range: give uplink_range_mbps or downlink_range_mbps, or drop it");
    m.range_source = json_string(obj, "range_source", p);
  }
  if (ranged && m.range_source.empty())
    throw InputError("", join_path(p, "range_source"),
                     "missing key (a throughput range needs its source: who measured the fit over it)");
  return m;
}

std::map<std::string, RadioPowerModel> parse_radio(const Json& json, const std::string& path) {
  std::map<std::string, RadioPowerModel> radio;
  const Json* obj = json_find(json, "radio", path);
  if (!obj) return radio;
  const auto p = join_path(path, "radio");
  if (!obj->is_object()) throw InputError("", p, "expected an object of network kind -> power model");
  json_reject_unknown_keys(*obj, p, {"wifi", "wifi_direct", "lte", "3g", "4g", "5g"});
  for (const auto& [kind, model] : obj->items()) radio[kind] = parse_radio_model(model, join_path(p, kind));
  return radio;
}

std::optional<SparseModel> parse_sparse_model(const Json& json, const std::string& path) {
  const Json* obj = json_find(json, "sparse_model", path);
  if (!obj) return std::nullopt;
  const auto p = join_path(path, "sparse_model");
  json_reject_unknown_keys(*obj, p, {"density_threshold", "spt_s_per_nonzero", "get_s_per_element"});
  SparseModel m;
  m.density_threshold = json_number(*obj, "density_threshold", p, 0.0, 1.0);
  m.spt_s_per_nonzero = json_number_or(*obj, "spt_s_per_nonzero", p, 0.0, 0.0);
  m.get_s_per_element = json_number_or(*obj, "get_s_per_element", p, 0.0, 0.0);
  return m;
}

// `codec: {encode_ms?, decode_ms?, source}`: at least one time, each > 0 and under a second.
std::optional<CodecTimes> parse_codec(const Json& json, const std::string& path) {
  const Json* obj = json_find(json, "codec", path);
  if (!obj) return std::nullopt;
  const auto p = join_path(path, "codec");
  json_reject_unknown_keys(*obj, p, {"encode_ms", "decode_ms", "source"});
  CodecTimes c;
  for (auto [key, field] : {std::pair{"encode_ms", &c.encode_ms}, std::pair{"decode_ms", &c.decode_ms}})
    if (obj->contains(key)) *field = json_number(*obj, key, p, 1e-6, 1000.0);
  if (!obj->contains("encode_ms") && !obj->contains("decode_ms"))
    throw InputError("", p, "expected encode_ms or decode_ms (ms per frame)");
  c.source = json_string(*obj, "source", p);
  return c;
}

std::optional<FitRecord> parse_fit(const Json& json, const std::string& path) {
  const Json* obj = json_find(json, "fit", path);
  if (!obj) return std::nullopt;
  const auto p = join_path(path, "fit");
  json_reject_unknown_keys(*obj, p, {"host_cpu", "host_basis"});
  return FitRecord{json_string(*obj, "host_cpu", p),
                   json_enum(*obj, "host_basis", p, {"profile", "estimate"})};
}

ProfileSource parse_profile_source(const Json& obj, const std::string& p) {
  json_reject_unknown_keys(obj, p, {"file", "sha256", "format", "model", "rows_matched"});
  ProfileSource s;
  s.file = json_string(obj, "file", p);
  s.sha256 = json_string(obj, "sha256", p);
  if (s.sha256.size() != 64 || s.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw InputError("", join_path(p, "sha256"), "expected 64 lowercase hex digits (the profile's SHA-256)");
  s.format = json_enum(obj, "format", p, profile_format_names());
  s.model = json_string(obj, "model", p);
  s.rows_matched = static_cast<int>(json_int(obj, "rows_matched", p, 1, 1 << 24));
  return s;
}

// provenance: {"description", "date": "YYYY-MM-DD", "host_times": "estimate"|"profile",
//              "profiles": [{"file", "sha256", "format", "model", "rows_matched"}]}
std::optional<ProfileProvenance> parse_provenance(const Json& json, const std::string& path) {
  const Json* obj = json_find(json, "provenance", path);
  if (!obj) return std::nullopt;
  const auto p = join_path(path, "provenance");
  json_reject_unknown_keys(*obj, p, {"description", "date", "host_times", "profiles"});
  ProfileProvenance v;
  v.description = json_string_or(*obj, "description", p, "");
  v.date = json_string(*obj, "date", p);
  if (!is_iso_date(v.date))
    throw InputError("", join_path(p, "date"),
                     fmt::format("expected YYYY-MM-DD, e.g. \"2025-03-14\", got \"{}\"", v.date));
  v.host_times = json_enum(*obj, "host_times", p, {"estimate", "profile"});
  const auto& arr = json_at(*obj, "profiles", p);
  const auto pp = join_path(p, "profiles");
  if (!arr.is_array() || arr.empty())
    throw InputError("", pp, "expected a non-empty array of {\"file\", \"sha256\", \"format\", \"model\"}");
  for (std::size_t i = 0; i < arr.size(); ++i)
    v.profiles.push_back(parse_profile_source(arr[i], index_path(pp, i)));
  return v;
}

ReferenceFigure parse_reference(const Json& obj, const std::string& p) {
  json_reject_unknown_keys(
      obj, p, {"model", "quantity", "value", "unit", "source", "fitted", "pinned", "batch", "input_shape"});
  ReferenceFigure f;
  f.model = json_string(obj, "model", p);
  f.quantity = json_enum(obj, "quantity", p, kQuantities);
  f.value = json_number(obj, "value", p);
  if (!(f.value > 0.0))
    throw InputError("", join_path(p, "value"), fmt::format("expected a positive time, got {}", f.value));
  f.unit = json_string(obj, "unit", p);
  const double seconds = f.value * time_unit_seconds(f.unit, join_path(p, "unit"));
  if (seconds > kMaxFigureSeconds)
    throw InputError("", join_path(p, "value"),
                     fmt::format("{} {} is over an hour for one {}; is the unit right (ms vs s)?", f.value,
                                 f.unit, f.quantity));
  f.source = json_string(obj, "source", p);
  if (f.source.empty())
    throw InputError("", join_path(p, "source"), "expected the figure's provenance, got \"\"");
  f.fitted = json_bool_or(obj, "fitted", p, true);
  f.pinned = json_bool_or(obj, "pinned", p, false);
  f.batch = json_int_or(obj, "batch", p, 1, 1, 1 << 20);
  if (json_find(obj, "input_shape", p)) f.input_shape = json_int_array(obj, "input_shape", p, -1, 1, 1 << 20);
  return f;
}

std::vector<ReferenceFigure> parse_references(const Json& json, const std::string& path) {
  const auto& arr = json_at(json, "references", path);
  const auto p = join_path(path, "references");
  if (!arr.is_array()) throw InputError("", p, "expected an array of reference figures");
  std::vector<ReferenceFigure> out;
  for (std::size_t i = 0; i < arr.size(); ++i) out.push_back(parse_reference(arr[i], index_path(p, i)));
  return out;
}

// Integral values (bytes, ms) are written as integers, the rest as doubles.
template <class J>
J number(double x) {
  if (std::isfinite(x) && std::fabs(x) < 9e15 && x == std::floor(x)) return J(static_cast<std::int64_t>(x));
  return J(x);
}

template <class J>
J op_scale_to_json(const std::map<std::string, double>& scale) {
  // "default" = the most common value, then the classes that differ from it.
  std::map<double, int> counts;
  for (const auto& [name, s] : scale) ++counts[s];
  double common = 0.0;
  int best = 0;
  for (const auto& [s, n] : counts)
    if (n > best) best = n, common = s;
  J out = J::object();
  const bool with_default = scale.size() < kOpClassCount || best > 1;
  if (with_default) out["default"] = number<J>(common);
  for (const auto& name : op_class_names()) {
    auto it = scale.find(name);
    if (it != scale.end() && (!with_default || it->second != common)) out[name] = number<J>(it->second);
  }
  return out;
}

template <class J>
J reference_to_json(const ReferenceFigure& f) {
  J j = J::object();
  j["model"] = f.model;
  j["quantity"] = f.quantity;
  j["value"] = number<J>(f.value);
  j["unit"] = f.unit;
  if (f.batch != 1) j["batch"] = f.batch;
  if (!f.input_shape.empty()) j["input_shape"] = f.input_shape;
  j["fitted"] = f.fitted;
  if (f.pinned) j["pinned"] = true;
  j["source"] = f.source;
  return j;
}

template <class J>
J provenance_to_json(const ProfileProvenance& v) {
  J j = J::object();
  j["description"] = v.description;
  j["date"] = v.date;
  j["host_times"] = v.host_times;
  J profiles = J::array();
  for (const auto& s : v.profiles) {
    J p = J::object();
    p["file"] = s.file;
    p["sha256"] = s.sha256;
    p["format"] = s.format;
    p["model"] = s.model;
    p["rows_matched"] = s.rows_matched;
    profiles.push_back(p);
  }
  j["profiles"] = profiles;
  return j;
}

template <class J>
J calibration_to_json_as(const DeviceCalibration& c) {
  J j = J::object();
  j["format"] = kCalibrationFormat;
  j["name"] = c.name;
  j["kind"] = enum_to_name(kKinds, c.kind);
  j["precision"] = enum_to_name(kPrecisions, c.precision);
  j["memory_bytes"] = number<J>(c.memory_bytes);
  j["op_scale"] = op_scale_to_json<J>(c.op_scale);
  J power = J::object();
  power["idle_w"] = number<J>(c.power.idle_w);
  power["busy_w"] = number<J>(c.power.busy_w);
  j["power"] = power;
  if (!c.radio.empty()) {
    J radio = J::object();
    for (const auto& [kind, m] : c.radio) {
      J r = J::object();
      r["uplink_alpha_mw_per_mbps"] = number<J>(m.uplink_alpha_mw_per_mbps);
      r["uplink_beta_mw"] = number<J>(m.uplink_beta_mw);
      r["downlink_alpha_mw_per_mbps"] = number<J>(m.downlink_alpha_mw_per_mbps);
      r["downlink_beta_mw"] = number<J>(m.downlink_beta_mw);
      for (const auto& [key, range] : {std::pair{"uplink_range_mbps", &m.uplink_range_mbps},
                                       std::pair{"downlink_range_mbps", &m.downlink_range_mbps}})
        if (*range) r[key] = J::array({number<J>((**range)[0]), number<J>((**range)[1])});
      if (!m.range_source.empty()) r["range_source"] = m.range_source;
      radio[kind] = r;
    }
    j["radio"] = radio;
  }
  if (c.sparse_model) {
    J s = J::object();
    s["density_threshold"] = number<J>(c.sparse_model->density_threshold);
    if (c.sparse_model->spt_s_per_nonzero > 0) s["spt_s_per_nonzero"] = c.sparse_model->spt_s_per_nonzero;
    if (c.sparse_model->get_s_per_element > 0) s["get_s_per_element"] = c.sparse_model->get_s_per_element;
    j["sparse_model"] = s;
  }
  if (c.codec) {
    J codec = J::object();
    if (!std::isnan(c.codec->encode_ms)) codec["encode_ms"] = number<J>(c.codec->encode_ms);
    if (!std::isnan(c.codec->decode_ms)) codec["decode_ms"] = number<J>(c.codec->decode_ms);
    codec["source"] = c.codec->source;
    j["codec"] = codec;
  }
  if (c.fit) {
    J fit = J::object();
    fit["host_cpu"] = c.fit->host_cpu;
    fit["host_basis"] = c.fit->host_basis;
    j["fit"] = fit;
  }
  if (c.provenance) j["provenance"] = provenance_to_json<J>(*c.provenance);
  J refs = J::array();
  for (const auto& f : c.references) refs.push_back(reference_to_json<J>(f));
  j["references"] = refs;
  j["notes"] = c.notes;
  return j;
}

}  // namespace

std::string device_kind_name(DeviceKind kind) { return enum_to_name(kKinds, kind); }
std::string precision_name(Precision precision) { return enum_to_name(kPrecisions, precision); }

double time_unit_seconds(const std::string& unit, const std::string& path) {
  for (const auto& [name, seconds] : kTimeUnits)
    if (unit == name) return seconds;
  throw InputError("", path, fmt::format("unknown time unit '{}'; expected one of s, ms, us", unit));
}

double reference_value_s(const ReferenceFigure& figure) {
  return figure.value * time_unit_seconds(figure.unit, "unit");
}

DeviceCalibration calibration_from_json(const Json& json) {
  const std::string path;
  if (!json.is_object()) throw InputError("", "", "expected a calibration object");
  json_reject_unknown_keys(json, path, kTopKeys);
  if (json_string(json, "format", path) != kCalibrationFormat)
    throw InputError("", "format", fmt::format("expected \"{}\"", kCalibrationFormat));
  DeviceCalibration c;
  c.name = json_string(json, "name", path);
  if (c.name.empty()) throw InputError("", "name", "expected a device name, got \"\"");
  c.kind = enum_from_name(kKinds, json_enum(json, "kind", path, enum_names(kKinds)));
  c.precision = enum_from_name(kPrecisions, json_enum(json, "precision", path, enum_names(kPrecisions)));
  c.memory_bytes = json_number(json, "memory_bytes", path, 0.0);
  if (c.memory_bytes < kMinMemoryBytes)
    throw InputError(
        "", "memory_bytes",
        fmt::format("{} bytes is implausible for a device; the value must be in bytes", c.memory_bytes));
  c.op_scale = parse_op_scale(json, path);
  c.power = parse_power(json, path);
  c.radio = parse_radio(json, path);
  c.sparse_model = parse_sparse_model(json, path);
  c.codec = parse_codec(json, path);
  c.fit = parse_fit(json, path);
  c.provenance = parse_provenance(json, path);
  c.references = parse_references(json, path);
  c.notes = json_string_or(json, "notes", path, "");
  return c;
}

DeviceCalibration load_calibration_file(const std::string& path) {
  const Json json = read_json_file(path);
  try {
    DeviceCalibration c = calibration_from_json(json);
    c.file = path;
    pin_model_times(c);
    return c;
  } catch (const InputError& e) {
    throw e.with_file(path);
  }
}

Json calibration_to_json(const DeviceCalibration& c) { return calibration_to_json_as<Json>(c); }

}  // namespace coinfer

namespace coinfer {

std::string calibration_file_text(const DeviceCalibration& calibration) {
  return calibration_to_json_as<nlohmann::ordered_json>(calibration).dump(2) + "\n";
}

}  // namespace coinfer
