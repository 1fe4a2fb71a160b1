#include "sim/scenario/yaml_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

// A float literal: strtod, and a value beyond double (`1e400`, strtod returns inf) is an input
// error at its key path, not std::stod's std::out_of_range.
double float_literal(const std::string& s, const std::string& file, const std::string& path) {
  const double v = std::strtod(s.c_str(), nullptr);
  if (!std::isfinite(v)) throw InputError(file, path, fmt::format("number out of range ({})", s));
  return v;
}

// YAML 1.2 core schema resolution of a plain (unquoted) scalar.
Json plain_scalar(const std::string& s, const std::string& file, const std::string& path) {
  static const std::regex int_re(R"([-+]?[0-9]+)");
  static const std::regex float_re(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  if (std::regex_match(s, int_re)) {
    std::int64_t v = 0;
    const char* begin = s.data() + (s[0] == '+' ? 1 : 0);
    if (std::from_chars(begin, s.data() + s.size(), v).ec == std::errc()) return v;
  }
  // An integer beyond int64 (2^70) becomes a float, as in JSON; json_as_int then reports it as
  // "integer out of range" where an integer is expected.
  if (std::regex_match(s, float_re)) return float_literal(s, file, path);
  if (s == ".inf" || s == "+.inf") return std::numeric_limits<double>::infinity();
  if (s == "-.inf") return -std::numeric_limits<double>::infinity();
  return s;
}

// Offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong forms,
// no surrogates, nothing above U+10FFFF), or npos. JSON text can only hold UTF-8, so a YAML string
// that is not must be refused here: nlohmann::json's dump() would throw type_error 316 when a
// results file or point hash serialises it.
std::size_t invalid_utf8_at(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = 1;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte (RFC 3629, section 4)
    if (b >= 0xC2 && b <= 0xDF) {
      len = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      len = 3;
      if (b == 0xE0) lo = 0xA0;  // overlong
      if (b == 0xED) hi = 0x9F;  // UTF-16 surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
      len = 4;
      if (b == 0xF0) lo = 0x90;  // overlong
      if (b == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else if (b >= 0x80) {
      return i;  // a continuation byte, or C0, C1, F5..FF
    }
    if (i + len > s.size()) return i;
    for (std::size_t k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) return i;
    }
    i += len;
  }
  return std::string::npos;
}

const std::string& checked_utf8(const std::string& s, const std::string& file, const std::string& path) {
  const auto at = invalid_utf8_at(s);
  if (at != std::string::npos)
    throw InputError(file, path,
                     fmt::format("not valid UTF-8 text (byte 0x{:02X} at offset {})",
                                 static_cast<unsigned char>(s[at]), at));
  return s;
}

std::string too_deep() {
  return fmt::format("nested too deeply (more than {} levels of sequences and mappings)", kMaxJsonDepth);
}

// Aliases let a few lines of YAML name an exponential number of nodes ("billion laughs"); a
// document may expand to at most this many (a scenario or platform has a few hundred).
constexpr std::size_t kMaxYamlNodes = 1'000'000;

// `path` is the key path of `node` (`workload.deadline_s`, `devices[2]`), for errors; `depth` the
// number of sequences and mappings around it, bounded like JSON's (kMaxJsonDepth); `nodes` counts
// the nodes converted so far, bounded by kMaxYamlNodes.
Json convert(const YAML::Node& node, const std::string& file, const std::string& path, std::size_t depth,
             std::size_t& nodes) {
  if (++nodes > kMaxYamlNodes)
    throw InputError(file, "",
                     fmt::format("too large: more than {} values once aliases are expanded", kMaxYamlNodes));
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      checked_utf8(node.Scalar(), file, path);
      return node.Tag() == "!" ? Json(node.Scalar()) : plain_scalar(node.Scalar(), file, path);
    case YAML::NodeType::Sequence: {
      if (depth >= kMaxJsonDepth) throw InputError(file, "", too_deep());  // the path would be 256 deep
      Json out = Json::array();
      for (const auto& item : node)
        out.push_back(convert(item, file, index_path(path, out.size()), depth + 1, nodes));
      return out;
    }
    case YAML::NodeType::Map: {
      if (depth >= kMaxJsonDepth) throw InputError(file, "", too_deep());
      Json out = Json::object();
      for (const auto& kv : node) {
        const auto key =
            checked_utf8(kv.first.Scalar(), file, fmt::format("line {}", kv.first.Mark().line + 1));
        if (out.contains(key))
          throw InputError(file, fmt::format("line {}", kv.first.Mark().line + 1),
                           fmt::format("duplicate key '{}'", key));
        out[key] = convert(kv.second, file, join_path(path, key), depth + 1, nodes);
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace

Json yaml_to_json(const std::string& text, const std::string& file) {
  try {
    std::size_t nodes = 0;
    return convert(YAML::Load(text), file, "", 0, nodes);
  } catch (const YAML::DeepRecursion&) {
    // yaml-cpp's own guard (about 500 levels) says "bad file"; say what it means.
    throw InputError(file, "", too_deep());
  } catch (const YAML::Exception& e) {
    throw InputError(file, fmt::format("line {}, column {}", e.mark.line + 1, e.mark.column + 1),
                     "malformed YAML: " + e.msg);
  }
}

Json read_yaml_file(const std::string& file) {
  // The error_code overload: the other throws filesystem_error for a name too long ("cannot open" below).
  if (std::error_code ec; std::filesystem::is_directory(file, ec))
    throw InputError(file, "", "is a directory, expected a YAML file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file, "", "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return yaml_to_json(ss.str(), file);
}

}  // namespace coinfer
