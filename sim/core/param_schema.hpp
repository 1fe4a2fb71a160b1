#pragma once
/// The parameters a registered component (partitioner, scheduler, solver) takes, as data. One
/// table both validates a scenario's `partitioner:` / `scheduler:` mapping and is printed by
/// `coinfer list`, so the documentation cannot drift from the code.
///
///     const ParamSchema schema{
///         ParamSpec::integer("workers", "worker phones; absent: the sweet spot").range(1, 1024),
///         ParamSpec::enumeration("conv", {"bodp", "grid2d"}, "conv split").with_default("bodp"),
///     };
///     Json p = schema.resolve(Json{{"workers", 4}}, "partitioner");  // {"conv": "bodp", "workers": 4}
///     schema.resolve(Json{{"wokers", 4}}, "partitioner");
///     // InputError "partitioner.wokers: unknown key; expected one of workers, conv"
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

enum class ParamType {
  Integer,  ///< a whole number (4, or 4.0), optionally in [min, max]
  Number,   ///< a finite number, optionally in [min, max]
  Boolean,  ///< true or false
  String,   ///< any string
  Path,     ///< a file name, relative to the scenario; named `file` or `*_file` (scenario_paths.hpp)
  Enum,     ///< one of `choices`
  Value,    ///< any JSON value (a list, a mapping): the component checks it; `meaning` gives its form
};

/// "int", "number", "bool", "string", "path", "enum", "value".
std::string_view param_type_name(ParamType type);

/// One parameter: its name, type, default, meaning and bounds.
struct ParamSpec {
  std::string name;
  ParamType type = ParamType::String;
  /// Used when the key is absent (or null). Null: no default, the parameter stays null ("not
  /// set", `meaning` says what that does) unless `required`.
  Json default_value;
  std::string meaning;
  std::optional<double> min;  ///< Integer / Number: inclusive bounds
  std::optional<double> max;
  std::vector<std::string> choices;  ///< Enum: the accepted strings
  bool required = false;             ///< absent -> `path.name: missing key`

  static ParamSpec integer(std::string name, std::string meaning);
  static ParamSpec number(std::string name, std::string meaning);
  static ParamSpec boolean(std::string name, std::string meaning);
  static ParamSpec string(std::string name, std::string meaning);
  static ParamSpec path(std::string name, std::string meaning);
  static ParamSpec enumeration(std::string name, std::vector<std::string> choices, std::string meaning);
  /// A list or mapping the component checks itself (errors still name `path.name[i]`).
  /// Example: `ParamSpec::value("devices", "list of device names, in pipeline order")`.
  static ParamSpec value(std::string name, std::string meaning);

  /// Copies with one attribute changed, for building tables: `ParamSpec::integer(...).range(1, 8)`.
  ParamSpec with_default(Json value) const;
  ParamSpec range(double low, double high) const;
  ParamSpec at_least(double low) const;
  ParamSpec mandatory() const;

  /// The value checked against type and bounds (an integral float becomes an integer); throws
  /// `InputError("", path, "expected an integer in [1, 1024], got 0")` and the like.
  Json check(const Json& value, const std::string& path) const;
  /// For listings: "int in [1, 1024]", "number >= 0", "bodp | grid2d", "path".
  std::string type_text() const;
  /// For listings: the default as JSON text, "required", or "-" (not set).
  std::string default_text() const;
  /// {"name", "type", "default", "required", "meaning"} plus "min", "max", "choices" when set.
  Json to_json() const;
  /// Inverse of `to_json` (for listings drawn from JSON); throws `InputError` on a malformed spec.
  static ParamSpec from_json(const Json& json);
};

class ParamSchema {
 public:
  /// A component that takes no parameters.
  ParamSchema() = default;
  /// Throws `Error` on a duplicate name or a default that fails its own check (a coding mistake).
  ParamSchema(std::initializer_list<ParamSpec> params);
  explicit ParamSchema(std::vector<ParamSpec> params);

  const std::vector<ParamSpec>& params() const { return params_; }
  bool empty() const { return params_.empty(); }
  std::vector<std::string> names() const;
  /// Null when there is no parameter `name`.
  const ParamSpec* find(std::string_view name) const;

  /// Where the component's input is documented (a solver's problem JSON: its header), or "".
  const std::string& documented_in() const { return documented_in_; }
  ParamSchema& set_documented_in(std::string file);

  /// Validates `params` (an object, or null for none) and returns every parameter: the given
  /// value, else the default, else null. Errors name `path.key`: an unknown key
  /// ("unknown key; expected one of a, b"), a wrong type or range, a missing required key.
  Json resolve(const Json& params, const std::string& path) const;
  /// Array of `ParamSpec::to_json`.
  Json to_json() const;

 private:
  std::vector<ParamSpec> params_;
  std::string documented_in_;
};

/// A solver's schema: no parameters; its problem JSON is described in `file`.
/// Example: `registry.add("bodp", "...", problem_documented_in("partitioners/modnn/bodp.hpp"), f)`.
ParamSchema problem_documented_in(std::string file);

}  // namespace coinfer
