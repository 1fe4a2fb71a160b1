#include "sim/core/json_access.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

std::string type_name(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

std::string fmt_number(double x) { return fmt::format("{}", x); }

std::string range_text(double min, double max) {
  if (min > -1e307 && max < 1e307) return fmt::format(" in [{}, {}]", fmt_number(min), fmt_number(max));
  if (min > -1e307) return fmt::format(" >= {}", fmt_number(min));
  if (max < 1e307) return fmt::format(" <= {}", fmt_number(max));
  return "";
}

const Json& require_array(const Json& obj, std::string_view key, const std::string& path, long size) {
  const Json& v = json_at(obj, key, path);
  const auto p = join_path(path, std::string(key));
  if (!v.is_array()) throw InputError("", p, "expected an array, got " + type_name(v));
  if (size >= 0 && static_cast<long>(v.size()) != size)
    throw InputError("", p, fmt::format("expected {} entries, got {}", size, v.size()));
  return v;
}

}  // namespace

const Json& json_at(const Json& obj, std::string_view key, const std::string& path) {
  if (!obj.is_object()) throw InputError("", path, "expected an object, got " + type_name(obj));
  auto it = obj.find(key);
  if (it == obj.end()) throw InputError("", join_path(path, std::string(key)), "missing key");
  return *it;
}

const Json* json_find(const Json& obj, std::string_view key, const std::string& path) {
  if (!obj.is_object()) throw InputError("", path, "expected an object, got " + type_name(obj));
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

std::int64_t json_as_int(const Json& v, const std::string& path, std::int64_t min, std::int64_t max) {
  std::int64_t x = 0;
  if (v.is_number_unsigned()) {
    // get<int64_t>() would wrap an unsigned above INT64_MAX to a negative number.
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(INT64_MAX))
      throw InputError("", path, fmt::format("integer out of range ({} > 2^63 - 1)", u));
    x = static_cast<std::int64_t>(u);
  } else if (v.is_number_integer()) {
    x = v.get<std::int64_t>();
  } else if (v.is_number_float() && std::isfinite(v.get<double>()) &&
             std::floor(v.get<double>()) == v.get<double>()) {
    // An integral float: 1e6, or an integer literal beyond uint64 (2^70) that the parser made a float.
    const double d = v.get<double>();
    if (!(d >= -0x1p63 && d < 0x1p63))
      throw InputError("", path, fmt::format("integer out of range ({} is outside [-2^63, 2^63 - 1])", d));
    x = static_cast<std::int64_t>(d);
  } else {
    throw InputError("", path, "expected an integer, got " + type_name(v));
  }
  if (x < min || x > max)
    throw InputError(
        "", path,
        fmt::format(
            "expected an integer{}, got {}",
            range_text(min == INT64_MIN ? -1e308 : double(min), max == INT64_MAX ? 1e308 : double(max)), x));
  return x;
}

double json_as_number(const Json& v, const std::string& path, double min, double max) {
  if (!v.is_number()) throw InputError("", path, "expected a number, got " + type_name(v));
  const double x = v.get<double>();
  if (!std::isfinite(x)) throw InputError("", path, "expected a finite number");
  if (x < min || x > max)
    throw InputError("", path,
                     fmt::format("expected a number{}, got {}", range_text(min, max), fmt_number(x)));
  return x;
}

std::int64_t json_int(const Json& obj, std::string_view key, const std::string& path, std::int64_t min,
                      std::int64_t max) {
  return json_as_int(json_at(obj, key, path), join_path(path, std::string(key)), min, max);
}

std::int64_t json_int_or(const Json& obj, std::string_view key, const std::string& path,
                         std::int64_t fallback, std::int64_t min, std::int64_t max) {
  const Json* v = json_find(obj, key, path);
  return v ? json_as_int(*v, join_path(path, std::string(key)), min, max) : fallback;
}

double json_number(const Json& obj, std::string_view key, const std::string& path, double min, double max) {
  return json_as_number(json_at(obj, key, path), join_path(path, std::string(key)), min, max);
}

double json_number_or(const Json& obj, std::string_view key, const std::string& path, double fallback,
                      double min, double max) {
  const Json* v = json_find(obj, key, path);
  return v ? json_as_number(*v, join_path(path, std::string(key)), min, max) : fallback;
}

std::optional<double> json_optional_number(const Json& obj, std::string_view key, const std::string& path,
                                           double min, double max) {
  const Json* v = json_find(obj, key, path);
  if (!v) return std::nullopt;
  return json_as_number(*v, join_path(path, std::string(key)), min, max);
}

bool json_bool_or(const Json& obj, std::string_view key, const std::string& path, bool fallback) {
  const Json* v = json_find(obj, key, path);
  if (!v) return fallback;
  if (!v->is_boolean())
    throw InputError("", join_path(path, std::string(key)), "expected true or false, got " + type_name(*v));
  return v->get<bool>();
}

std::string json_string(const Json& obj, std::string_view key, const std::string& path) {
  const Json& v = json_at(obj, key, path);
  if (!v.is_string())
    throw InputError("", join_path(path, std::string(key)), "expected a string, got " + type_name(v));
  return v.get<std::string>();
}

std::string json_string_or(const Json& obj, std::string_view key, const std::string& path,
                           std::string fallback) {
  return json_find(obj, key, path) ? json_string(obj, key, path) : fallback;
}

std::string json_enum(const Json& obj, std::string_view key, const std::string& path,
                      const std::vector<std::string>& allowed) {
  auto s = json_string(obj, key, path);
  for (const auto& a : allowed)
    if (a == s) return s;
  throw InputError("", join_path(path, std::string(key)),
                   fmt::format("expected one of {}, got '{}'", fmt::join(allowed, ", "), s));
}

std::vector<double> json_number_array(const Json& obj, std::string_view key, const std::string& path,
                                      long expected_size, double min, double max) {
  const Json& v = require_array(obj, key, path, expected_size);
  const auto p = join_path(path, std::string(key));
  std::vector<double> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(json_as_number(v[i], index_path(p, i), min, max));
  return out;
}

std::vector<std::int64_t> json_int_array(const Json& obj, std::string_view key, const std::string& path,
                                         long expected_size, std::int64_t min, std::int64_t max) {
  const Json& v = require_array(obj, key, path, expected_size);
  const auto p = join_path(path, std::string(key));
  std::vector<std::int64_t> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(json_as_int(v[i], index_path(p, i), min, max));
  return out;
}

std::vector<std::vector<double>> json_number_matrix(const Json& obj, std::string_view key,
                                                    const std::string& path, double min, double max) {
  const Json& v = require_array(obj, key, path, -1);
  const auto p = join_path(path, std::string(key));
  std::vector<std::vector<double>> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto rp = index_path(p, i);
    if (!v[i].is_array()) throw InputError("", rp, "expected an array, got " + type_name(v[i]));
    std::vector<double> row;
    row.reserve(v[i].size());
    for (std::size_t k = 0; k < v[i].size(); ++k)
      row.push_back(json_as_number(v[i][k], index_path(rp, k), min, max));
    out.push_back(std::move(row));
  }
  return out;
}

void json_reject_unknown_keys(const Json& obj, const std::string& path,
                              const std::vector<std::string>& allowed) {
  if (!obj.is_object()) throw InputError("", path, "expected an object, got " + type_name(obj));
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const auto& a : allowed) known = known || a == it.key();
    if (!known)
      throw InputError("", join_path(path, it.key()),
                       fmt::format("unknown key; expected one of {}", fmt::join(allowed, ", ")));
  }
}

namespace {

/// nlohmann's SAX events, handed to its own DOM builder, while keeping the key path of the value
/// being read: a number beyond double (`1e400`, nlohmann's out_of_range.406) becomes
/// `file: layers[1].padding: number out of range (1e400)`, and nesting deeper than
/// kMaxJsonDepth stops with `nested too deeply` before any recursive code sees the document.
class PathTrackingSax {
 public:
  PathTrackingSax(Json& root, const std::string& file) : dom_(root, true), file_(file) {}

  bool null() { return done(dom_.null()); }
  bool boolean(bool v) { return done(dom_.boolean(v)); }
  bool number_integer(Json::number_integer_t v) { return done(dom_.number_integer(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return done(dom_.number_unsigned(v)); }
  bool number_float(Json::number_float_t v, const std::string& s) { return done(dom_.number_float(v, s)); }
  bool string(std::string& v) { return done(dom_.string(v)); }
  bool binary(Json::binary_t& v) { return done(dom_.binary(v)); }
  bool start_object(std::size_t n) { return enter(false) && dom_.start_object(n); }
  bool key(std::string& k) {
    frames_.back().key = k;
    return dom_.key(k);
  }
  bool end_object() {
    frames_.pop_back();
    return done(dom_.end_object());
  }
  bool start_array(std::size_t n) { return enter(true) && dom_.start_array(n); }
  bool end_array() {
    frames_.pop_back();
    return done(dom_.end_array());
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
    if (ex.id == 406) throw InputError(file_, path(), fmt::format("number out of range ({})", token));
    return dom_.parse_error(position, token, ex);  // throws `ex`, a Json::parse_error
  }

 private:
  struct Frame {
    bool array = false;
    std::size_t index = 0;  // arrays: the element being read
    std::string key;        // objects: the key being read
  };

  // A value is complete: the enclosing array moves on to its next index.
  bool done(bool ok) {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return ok;
  }
  bool enter(bool array) {
    if (frames_.size() >= kMaxJsonDepth)  // no path: it would be 256 levels long
      throw InputError(
          file_, "",
          fmt::format("nested too deeply (more than {} levels of arrays and objects)", kMaxJsonDepth));
    frames_.push_back({array, 0, {}});
    return true;
  }
  std::string path() const {
    std::string p;
    for (const auto& f : frames_) p = f.array ? index_path(p, f.index) : join_path(p, f.key);
    return p;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  const std::string& file_;
  std::vector<Frame> frames_;
};

}  // namespace

Json parse_json_text(const std::string& text, const std::string& file) {
  Json root;
  PathTrackingSax sax(root, file);
  try {
    Json::sax_parse(text, &sax);
  } catch (const Json::parse_error& e) {
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] "; keep the readable part.
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    throw InputError(file, "", "not valid JSON: " + what);
  }
  return root;
}

Json read_json_file(const std::string& file) {
  // The error_code overload: the other throws filesystem_error for a name too long ("cannot open" below).
  if (std::error_code ec; std::filesystem::is_directory(file, ec))
    throw InputError(file, "", "is a directory, expected a JSON file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file, "", "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_json_text(ss.str(), file);
}

}  // namespace coinfer
