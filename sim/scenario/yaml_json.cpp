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
        const auto key = kv.first.Scalar();
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
  if (std::filesystem::is_directory(file)) throw InputError(file, "", "is a directory, expected a YAML file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file, "", "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return yaml_to_json(ss.str(), file);
}

}  // namespace coinfer
