#include "sim/core/param_schema.hpp"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

std::string value_kind(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  if (v.is_string()) return fmt::format("'{}'", v.get<std::string>());
  if (v.is_array()) return "an array";
  return "an object";
}

std::string number_text(double x) { return fmt::format("{}", x); }

std::int64_t int_bound(const std::optional<double>& bound, std::int64_t fallback, bool lower) {
  if (!bound) return fallback;
  return static_cast<std::int64_t>(lower ? std::ceil(*bound) : std::floor(*bound));
}

ParamSpec make(std::string name, ParamType type, std::string meaning) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = type;
  s.meaning = std::move(meaning);
  return s;
}

}  // namespace

std::string_view param_type_name(ParamType type) {
  switch (type) {
    case ParamType::Integer:
      return "int";
    case ParamType::Number:
      return "number";
    case ParamType::Boolean:
      return "bool";
    case ParamType::String:
      return "string";
    case ParamType::Path:
      return "path";
    case ParamType::Enum:
      return "enum";
    case ParamType::Value:
      return "value";
  }
  return "?";
}

ParamSpec ParamSpec::integer(std::string name, std::string meaning) {
  return make(std::move(name), ParamType::Integer, std::move(meaning));
}
ParamSpec ParamSpec::number(std::string name, std::string meaning) {
  return make(std::move(name), ParamType::Number, std::move(meaning));
}
ParamSpec ParamSpec::boolean(std::string name, std::string meaning) {
  return make(std::move(name), ParamType::Boolean, std::move(meaning));
}
ParamSpec ParamSpec::string(std::string name, std::string meaning) {
  return make(std::move(name), ParamType::String, std::move(meaning));
}
ParamSpec ParamSpec::path(std::string name, std::string meaning) {
  // Scenarios resolve (and sweeps rebase) exactly the parameters named so
  // (sim/scenario/scenario_paths.hpp), without asking the registry: the name is the contract.
  if (name != "file" && !name.ends_with("_file"))
    throw Error("path parameter '" + name + "' must be named 'file' or end in '_file'");
  return make(std::move(name), ParamType::Path, std::move(meaning));
}
ParamSpec ParamSpec::enumeration(std::string name, std::vector<std::string> choices, std::string meaning) {
  auto s = make(std::move(name), ParamType::Enum, std::move(meaning));
  s.choices = std::move(choices);
  return s;
}

ParamSpec ParamSpec::value(std::string name, std::string meaning) {
  return make(std::move(name), ParamType::Value, std::move(meaning));
}

ParamSpec ParamSpec::with_default(Json value) const {
  auto s = *this;
  s.default_value = std::move(value);
  return s;
}

ParamSpec ParamSpec::range(double low, double high) const {
  auto s = *this;
  s.min = low;
  s.max = high;
  return s;
}

ParamSpec ParamSpec::at_least(double low) const {
  auto s = *this;
  s.min = low;
  return s;
}

ParamSpec ParamSpec::mandatory() const {
  auto s = *this;
  s.required = true;
  return s;
}

Json ParamSpec::check(const Json& value, const std::string& path) const {
  switch (type) {
    case ParamType::Integer:
      return json_as_int(value, path, int_bound(min, INT64_MIN, true), int_bound(max, INT64_MAX, false));
    case ParamType::Number:
      return json_as_number(value, path, min.value_or(-1e308), max.value_or(1e308));
    case ParamType::Boolean:
      if (!value.is_boolean()) throw InputError("", path, "expected true or false, got " + value_kind(value));
      return value;
    case ParamType::String:
      if (!value.is_string()) throw InputError("", path, "expected a string, got " + value_kind(value));
      return value;
    case ParamType::Path:
      if (!value.is_string() || value.get<std::string>().empty())
        throw InputError("", path, "expected a file name, got " + value_kind(value));
      return value;
    case ParamType::Enum:
      if (value.is_string())
        for (const auto& c : choices)
          if (c == value.get<std::string>()) return value;
      throw InputError(
          "", path, fmt::format("expected one of {}, got {}", fmt::join(choices, ", "), value_kind(value)));
    case ParamType::Value:
      return value;
  }
  return value;
}

std::string ParamSpec::type_text() const {
  if (type == ParamType::Enum) return fmt::format("{}", fmt::join(choices, " | "));
  std::string out(param_type_name(type));
  if (min && max) return fmt::format("{} in [{}, {}]", out, number_text(*min), number_text(*max));
  if (min) return fmt::format("{} >= {}", out, number_text(*min));
  if (max) return fmt::format("{} <= {}", out, number_text(*max));
  return out;
}

std::string ParamSpec::default_text() const {
  if (required) return "required";
  if (default_value.is_null()) return "-";
  if (default_value.is_string()) return default_value.get<std::string>();
  if (default_value.is_number_float()) return number_text(default_value.get<double>());
  return default_value.dump();
}

Json ParamSpec::to_json() const {
  Json j{{"name", name},
         {"type", std::string(param_type_name(type))},
         {"default", default_value},
         {"required", required},
         {"meaning", meaning}};
  if (min) j["min"] = *min;
  if (max) j["max"] = *max;
  if (!choices.empty()) j["choices"] = choices;
  return j;
}

ParamSpec ParamSpec::from_json(const Json& json) {
  ParamSpec s;
  s.name = json_string(json, "name", "");
  const auto type = json_string(json, "type", "");
  bool known = false;
  for (auto t : {ParamType::Integer, ParamType::Number, ParamType::Boolean, ParamType::String,
                 ParamType::Path, ParamType::Enum, ParamType::Value})
    if (param_type_name(t) == type) {
      s.type = t;
      known = true;
    }
  if (!known) throw InputError("", "type", fmt::format("unknown parameter type '{}'", type));
  s.default_value = json.value("default", Json());
  s.required = json_bool_or(json, "required", "", false);
  s.meaning = json_string_or(json, "meaning", "", "");
  s.min = json_optional_number(json, "min", "");
  s.max = json_optional_number(json, "max", "");
  if (const Json* c = json_find(json, "choices", ""))
    for (std::size_t i = 0; i < c->size(); ++i) {
      if (!(*c)[i].is_string()) throw InputError("", index_path("choices", i), "expected a string");
      s.choices.push_back((*c)[i].get<std::string>());
    }
  return s;
}

ParamSchema::ParamSchema(std::initializer_list<ParamSpec> params)
    : ParamSchema(std::vector<ParamSpec>(params)) {}

ParamSchema::ParamSchema(std::vector<ParamSpec> params) : params_(std::move(params)) {
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const auto& p = params_[i];
    for (std::size_t k = 0; k < i; ++k)
      if (params_[k].name == p.name) throw Error(fmt::format("parameter '{}' declared twice", p.name));
    if (p.required && !p.default_value.is_null())
      throw Error(fmt::format("parameter '{}' is required and has a default", p.name));
    try {
      if (!p.default_value.is_null()) p.check(p.default_value, p.name);
    } catch (const InputError& e) {
      throw Error(fmt::format("parameter '{}': bad default: {}", p.name, e.what()));
    }
  }
}

std::vector<std::string> ParamSchema::names() const {
  std::vector<std::string> out;
  for (const auto& p : params_) out.push_back(p.name);
  return out;
}

const ParamSpec* ParamSchema::find(std::string_view name) const {
  for (const auto& p : params_)
    if (p.name == name) return &p;
  return nullptr;
}

ParamSchema& ParamSchema::set_documented_in(std::string file) {
  documented_in_ = std::move(file);
  return *this;
}

Json ParamSchema::resolve(const Json& params, const std::string& path) const {
  if (!params.is_null() && !params.is_object())
    throw InputError("", path, "expected a mapping of parameters, got " + value_kind(params));
  Json out = Json::object();
  if (params.is_object())
    for (const auto& [key, value] : params.items()) {
      if (!find(key))
        throw InputError("", join_path(path, key),
                         params_.empty()
                             ? std::string("unknown key; takes no parameters")
                             : fmt::format("unknown key; expected one of {}", fmt::join(names(), ", ")));
    }
  for (const auto& p : params_) {
    const auto key_path = join_path(path, p.name);
    const Json* given = params.is_object() ? json_find(params, p.name, path) : nullptr;
    if (given)
      out[p.name] = p.check(*given, key_path);
    else if (p.required)
      throw InputError("", key_path, "missing key");
    else
      out[p.name] = p.default_value;
  }
  return out;
}

Json ParamSchema::to_json() const {
  Json out = Json::array();
  for (const auto& p : params_) out.push_back(p.to_json());
  return out;
}

ParamSchema problem_documented_in(std::string file) {
  ParamSchema schema;
  schema.set_documented_in(std::move(file));
  return schema;
}

}  // namespace coinfer
