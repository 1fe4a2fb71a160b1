#include "sim/scenario/yaml_json.hpp"

#include <charconv>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

// YAML 1.2 core schema resolution of a plain (unquoted) scalar.
Json plain_scalar(const std::string& s) {
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
  if (std::regex_match(s, float_re)) return std::stod(s);
  if (s == ".inf" || s == "+.inf") return std::numeric_limits<double>::infinity();
  if (s == "-.inf") return -std::numeric_limits<double>::infinity();
  return s;
}

Json convert(const YAML::Node& node, const std::string& file) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      return node.Tag() == "!" ? Json(node.Scalar()) : plain_scalar(node.Scalar());
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(convert(item, file));
      return out;
    }
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& kv : node) {
        const auto key = kv.first.Scalar();
        if (out.contains(key))
          throw InputError(file, fmt::format("line {}", kv.first.Mark().line + 1),
                           fmt::format("duplicate key '{}'", key));
        out[key] = convert(kv.second, file);
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace

Json yaml_to_json(const std::string& text, const std::string& file) {
  try {
    return convert(YAML::Load(text), file);
  } catch (const YAML::Exception& e) {
    throw InputError(file, fmt::format("line {}, column {}", e.mark.line + 1, e.mark.column + 1),
                     "malformed YAML: " + e.msg);
  }
}

Json read_yaml_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file, "", "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return yaml_to_json(ss.str(), file);
}

}  // namespace coinfer
