#pragma once
/// Plain-text tables for the CLI: columns padded to their widest cell, numbers right-aligned.
///
///     TextTable t({"model", "params"});
///     t.add_row({"vgg16", format_count(138357544)});
///     std::cout << t.str();
#include <cstdint>
#include <string>
#include <vector>

namespace coinfer {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header, std::vector<bool> right_aligned = {});
  void add_row(std::vector<std::string> cells);
  void add_separator();
  std::string str() const;

 private:
  std::vector<std::string> header_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;  // an empty row is a separator
};

/// 138357544 -> "138,357,544".
std::string format_count(std::int64_t n);

}  // namespace coinfer
