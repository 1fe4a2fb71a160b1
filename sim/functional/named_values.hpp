#pragma once
/// A fixed table of an enum's values and their names, looked up both ways: the options of the
/// functional trainers (gradient codecs, epoch tails).
///
///     constexpr NamedValue<EpochTail> kTails[] = {{EpochTail::Keep, "keep"}, {EpochTail::Drop, "drop"}};
///     name_of(kTails, EpochTail::Drop);                                 // "drop"
///     parse_named(kTails, "last", "tail", "epoch tail");                // throws, listing keep, drop
#include <cstddef>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {

template <class E>
struct NamedValue {
  E value;
  std::string_view name;
};

/// The name of `value` in `table` ("?" if it is missing).
template <class E, std::size_t N>
std::string_view name_of(const NamedValue<E> (&table)[N], E value) {
  for (const auto& e : table)
    if (e.value == value) return e.name;
  return "?";
}

/// The value named `name`; throws `InputError("", key, "unknown <what> 'x'; known: a, b, ...")`.
template <class E, std::size_t N>
E parse_named(const NamedValue<E> (&table)[N], std::string_view name, const char* key,
              std::string_view what) {
  std::vector<std::string_view> names;
  for (const auto& e : table) {
    if (e.name == name) return e.value;
    names.push_back(e.name);
  }
  throw InputError("", key, fmt::format("unknown {} '{}'; known: {}", what, name, fmt::join(names, ", ")));
}

}  // namespace coinfer
