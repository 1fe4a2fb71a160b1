#pragma once
/// A scenario's `compare:` variants: labelled sets of key-path assignments run side by side.
///
///     compare:
///       - {label: local, set: {partitioner: {name: local}}}
///       - {label: lte, set: {partitioner.network: lte}}     # a key path sets one nested key
///
/// `coinfer run` runs each variant in its own process; a sweep over a scenario with variants
/// makes them its fastest axis (`variant`). Labels are unique and name folders, so they may hold
/// letters, digits, '_', '-', '.' and '+' (not '.' or '..' alone).
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

struct CompareEntry {
  std::string label;
  Json set = Json::object();  ///< key path -> value, applied to the scenario
  std::size_t index = 0;      ///< position in `compare` (errors say compare[index])
};

/// Reads `doc.compare` (empty when absent). Throws `InputError("", "compare[1].label", ...)` on a
/// duplicate or malformed label.
std::vector<CompareEntry> parse_compare(const Json& doc);

/// The document of one variant: `compare` and `report` removed, the entry's `set` applied in
/// key order. Errors read `compare[1].set.partitioner.name: ...`.
Json compare_variant_doc(const Json& doc, const CompareEntry& entry);

}  // namespace coinfer
