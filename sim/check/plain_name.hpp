#pragma once
/// The names a check suite and a claims ledger give their entries (a check, a metric pattern, a
/// claim id): letters, digits and `_-.+`, so that they can name a file and be quoted anywhere.
///
///     is_plain_name("fig11-cbo-not-below-fastva");   // true
///     is_plain_name("a b");                          // false
#include <cctype>
#include <string_view>

namespace coinfer {

inline bool is_plain_name(std::string_view name) {
  if (name.empty()) return false;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.' && c != '+')
      return false;
  return true;
}

}  // namespace coinfer
