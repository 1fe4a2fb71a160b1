#pragma once
/// Name -> factory registry shared by partitioners, schedulers and solvers.
/// Duplicates are rejected; an unknown name is answered with the list of known ones:
///
///     Registry<Solver> solvers("solver");
///     solvers.add("split-dp", "Hu & Krishnamachari eq. 2", [](const Json&) { ... });
///     auto s = solvers.create("split-dp", {});   // throws InputError listing names on a typo
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/json_access.hpp"

namespace coinfer {

template <class Base>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Base>(const Json& params)>;

  /// `kind` names what is registered ("partitioner", "scheduler", "solver") in errors.
  explicit Registry(std::string kind) : kind_(std::move(kind)) {}

  /// Throws `Error` when `name` is already registered.
  void add(std::string name, std::string summary, Factory make) {
    if (entries_.count(name)) throw Error(fmt::format("{} '{}' registered twice", kind_, name));
    entries_.emplace(std::move(name), Entry{std::move(summary), std::move(make)});
  }

  bool contains(std::string_view name) const { return entries_.find(std::string(name)) != entries_.end(); }

  /// Creates `name` with `params`; an unknown name throws
  /// `InputError(file, path, "unknown solver 'x'; known: a, b")`.
  std::unique_ptr<Base> create(std::string_view name, const Json& params, const std::string& file = "",
                               const std::string& path = "") const {
    auto it = entries_.find(std::string(name));
    if (it == entries_.end())
      throw InputError(file, path,
                       fmt::format("unknown {} '{}'; known: {}", kind_, name, fmt::join(names(), ", ")));
    return it->second.make(params);
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, entry] : entries_) out.push_back(name);
    return out;
  }

  const std::string& summary(std::string_view name) const { return entries_.at(std::string(name)).summary; }
  const std::string& kind() const { return kind_; }

 private:
  struct Entry {
    std::string summary;
    Factory make;
  };
  std::string kind_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace coinfer
