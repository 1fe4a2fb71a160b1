#include "sim/scenario/compare.hpp"

#include <set>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/scenario/key_path.hpp"

namespace coinfer {
namespace {

void check_label(const std::string& label, const std::string& path) {
  const bool chars_ok = !label.empty() && label.find_first_not_of(
                                              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_-.+") == std::string::npos;
  if (!chars_ok || label == "." || label == "..")
    throw InputError("", path,
                     fmt::format("expected a label of letters, digits, '_', '-', '.', '+' (it names a "
                                 "folder), got '{}'",
                                 label));
}

}  // namespace

std::vector<CompareEntry> parse_compare(const Json& doc) {
  std::vector<CompareEntry> out;
  const Json* c = json_find(doc, "compare", "");
  if (!c) return out;
  if (!c->is_array()) throw InputError("", "compare", "expected a list of {label, set}");
  std::set<std::string> labels;
  for (std::size_t i = 0; i < c->size(); ++i) {
    const auto path = index_path("compare", i);
    json_reject_unknown_keys((*c)[i], path, {"label", "set"});
    CompareEntry e{json_string((*c)[i], "label", path), Json::object(), i};
    check_label(e.label, join_path(path, "label"));
    if (!labels.insert(e.label).second)
      throw InputError(
          "", join_path(path, "label"),
          fmt::format("duplicate label '{}': each variant writes its results under its label", e.label));
    if (const Json* set = json_find((*c)[i], "set", path)) {
      if (!set->is_object()) throw InputError("", join_path(path, "set"), "expected a mapping of key paths");
      for (const auto& [key, value] : set->items()) {
        try {
          parse_key_path(key);
        } catch (const InputError& err) {
          throw InputError("", join_path(join_path(path, "set"), key), err.message());
        }
      }
      e.set = *set;
    }
    out.push_back(std::move(e));
  }
  return out;
}

Json compare_variant_doc(const Json& doc, const CompareEntry& entry) {
  Json out = doc;
  out.erase("compare");
  out.erase("report");
  for (const auto& [key, value] : entry.set.items()) {
    try {
      set_at_path(out, key, value);
    } catch (const InputError& e) {
      throw InputError("", join_path(join_path(index_path("compare", entry.index), "set"), key), e.message());
    }
  }
  return out;
}

}  // namespace coinfer
