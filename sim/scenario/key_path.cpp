#include "sim/scenario/key_path.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/scenario/yaml_json.hpp"

namespace coinfer {

std::vector<PathStep> parse_key_path(const std::string& path) {
  std::vector<PathStep> steps;
  std::size_t i = 0;
  auto fail = [&](const std::string& why) { throw InputError("", path, "malformed key path: " + why); };
  while (i < path.size()) {
    if (path[i] == '[') {
      const auto close = path.find(']', i);
      if (close == std::string::npos || close == i + 1) fail("expected [index]");
      const auto digits = path.substr(i + 1, close - i - 1);
      if (digits.find_first_not_of("0123456789") != std::string::npos)
        fail("index '" + digits + "' is not a number");
      if (digits.size() > 9) fail("index '" + digits + "' is out of range (at most 999999999)");
      steps.emplace_back(static_cast<std::size_t>(std::stoull(digits)));
      i = close + 1;
      if (i < path.size() && path[i] == '.') ++i;
      continue;
    }
    const auto end = path.find_first_of(".[", i);
    const auto key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
    if (key.empty()) fail("empty key");
    steps.emplace_back(key);
    i = end == std::string::npos ? path.size() : (path[end] == '.' ? end + 1 : end);
    if (end != std::string::npos && path[end] == '.' && i == path.size()) fail("trailing '.'");
  }
  if (steps.empty()) fail("empty path");
  return steps;
}

void set_at_path(Json& doc, const std::string& path, Json value) {
  Json* cur = &doc;
  std::string walked;
  for (const auto& step : parse_key_path(path)) {
    if (const auto* key = std::get_if<std::string>(&step)) {
      if (cur->is_null()) *cur = Json::object();
      if (!cur->is_object())
        throw InputError("", path, fmt::format("'{}' is not a mapping, cannot set key '{}'", walked, *key));
      cur = &(*cur)[*key];
      walked = join_path(walked, *key);
    } else {
      const auto index = std::get<std::size_t>(step);
      if (!cur->is_array() || index >= cur->size())
        throw InputError("", path, fmt::format("'{}' has no element [{}]", walked, index));
      cur = &(*cur)[index];
      walked = index_path(walked, index);
    }
  }
  *cur = std::move(value);
}

const Json* find_at_path(const Json& doc, const std::string& path) {
  const Json* cur = &doc;
  for (const auto& step : parse_key_path(path)) {
    if (const auto* key = std::get_if<std::string>(&step)) {
      if (!cur->is_object() || !cur->contains(*key)) return nullptr;
      cur = &(*cur)[*key];
    } else {
      const auto index = std::get<std::size_t>(step);
      if (!cur->is_array() || index >= cur->size()) return nullptr;
      cur = &(*cur)[index];
    }
  }
  return cur;
}

void apply_override(Json& doc, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("", "--set", fmt::format("expected key=value, got '{}'", assignment));
  const auto key = assignment.substr(0, eq);
  Json value = yaml_to_json(assignment.substr(eq + 1), "--set " + key);
  set_at_path(doc, key, std::move(value));
}

}  // namespace coinfer
