#pragma once
/// Name -> factory registry shared by partitioners, schedulers and solvers. Each entry carries a
/// one-line summary and the schema of its parameters (sim/core/param_schema.hpp); `create`
/// validates the parameters against that schema and fills the defaults before the factory runs,
/// and `coinfer list` prints the same schema. Duplicates are rejected; an unknown name is answered
/// with the list of known ones:
///
///     Registry<Partitioner> partitioners("partitioner");
///     partitioners.add("local", "every layer on one device",
///                      ParamSchema{ParamSpec::string("device", "the device; absent: the source")},
///                      [](const Json& params) { ... });         // params: validated, defaults filled
///     auto p = partitioners.create("local", Json{{"device", "phone"}}, "s.yaml", "partitioner.name");
///     // a typo in the name:  InputError "s.yaml: partitioner.name: unknown partitioner 'locl'; known: ..."
///     // an unknown key:      InputError "s.yaml: partitioner.devise: unknown key; expected one of device"
///
/// A renamed entry leaves its old name behind with `retire`, so that a scenario still using it gets
/// the new name instead of the list of known ones:
///
///     schedulers.retire("local", "cbo-local");
///     schedulers.create("local", ...);
///     // InputError "s.yaml: scheduler.name: scheduler 'local' was renamed 'cbo-local'"
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/json_access.hpp"
#include "sim/core/param_schema.hpp"

namespace coinfer {

template <class Base>
class Registry {
 public:
  /// Receives the parameters as `ParamSchema::resolve` returns them: every declared key, valid.
  using Factory = std::function<std::unique_ptr<Base>(const Json& params)>;

  /// `kind` names what is registered ("partitioner", "scheduler", "solver") in errors.
  explicit Registry(std::string kind) : kind_(std::move(kind)) {}

  /// Throws `Error` when `name` is already registered.
  void add(std::string name, std::string summary, ParamSchema params, Factory make) {
    if (entries_.count(name)) throw Error(fmt::format("{} '{}' registered twice", kind_, name));
    entries_.emplace(std::move(name), Entry{std::move(summary), std::move(params), std::move(make)});
  }

  /// Records that `old_name` was renamed `new_name`: `create` and `resolved_params` answer the old
  /// name with the new one. Throws `Error` when `old_name` is registered or already retired.
  void retire(std::string old_name, std::string new_name) {
    if (entries_.count(old_name) || !retired_.emplace(old_name, std::move(new_name)).second)
      throw Error(fmt::format("{} '{}' retired while in use", kind_, old_name));
  }

  bool contains(std::string_view name) const { return entries_.find(name) != entries_.end(); }

  /// Creates `name` with `params`. An unknown name throws
  /// `InputError(file, path, "unknown solver 'x'; known: a, b")`; bad parameters throw
  /// `InputError(file, "<prefix>.<key>", ...)` (see `resolved_params`).
  std::unique_ptr<Base> create(std::string_view name, const Json& params, const std::string& file = "",
                               const std::string& path = "") const {
    const Entry& e = entry(name, file, path);
    return e.make(resolve(e, params, file, path));
  }

  /// `params` validated against `name`'s schema, with every default filled (absent optional
  /// parameters without a default are null). Errors name `<prefix>.<key>`, where the prefix is
  /// `path` without a trailing `.name` (`partitioner.name` -> `partitioner.workers`), or the
  /// registry's kind when `path` is empty.
  Json resolved_params(std::string_view name, const Json& params, const std::string& file = "",
                       const std::string& path = "") const {
    return resolve(entry(name, file, path), params, file, path);
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, entry] : entries_) out.push_back(name);
    return out;
  }

  /// The summary and schema of a registered name (`std::out_of_range` otherwise).
  const std::string& summary(std::string_view name) const { return checked(name).summary; }
  const ParamSchema& params(std::string_view name) const { return checked(name).params; }
  const std::string& kind() const { return kind_; }

 private:
  struct Entry {
    std::string summary;
    ParamSchema params;
    Factory make;
  };

  const Entry& checked(std::string_view name) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) throw std::out_of_range(fmt::format("no {} '{}'", kind_, name));
    return it->second;
  }

  const Entry& entry(std::string_view name, const std::string& file, const std::string& path) const {
    auto it = entries_.find(name);
    if (auto old = retired_.find(name); it == entries_.end() && old != retired_.end())
      throw InputError(file, path, fmt::format("{} '{}' was renamed '{}'", kind_, name, old->second));
    if (it == entries_.end())
      throw InputError(file, path,
                       fmt::format("unknown {} '{}'; known: {}", kind_, name, fmt::join(names(), ", ")));
    return it->second;
  }

  std::string params_prefix(const std::string& path) const {
    if (path.empty()) return kind_;
    if (path.ends_with(".name")) return path.substr(0, path.size() - 5);
    return path;
  }

  Json resolve(const Entry& e, const Json& params, const std::string& file, const std::string& path) const {
    try {
      return e.params.resolve(params, params_prefix(path));
    } catch (const InputError& error) {
      throw file.empty() ? error : error.with_file(file);
    }
  }

  std::string kind_;
  std::map<std::string, Entry, std::less<>> entries_;
  std::map<std::string, std::string, std::less<>> retired_;  ///< old name -> new name
};

}  // namespace coinfer
