#include "sim/calibration/profile_text.hpp"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {

std::vector<TextLine> split_lines(std::string_view text) {
  std::vector<TextLine> lines;
  int number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({++number, std::string(line)});
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return lines;
}

std::string line_path(int number) { return fmt::format("line {}", number); }

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

bool is_blank_or_comment(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first == std::string_view::npos || line[first] == '#';
}

std::string trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return "";
  return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

std::vector<std::string> split_trimmed(std::string_view line, char sep, std::size_t max_splits) {
  std::vector<std::string> fields;
  for (std::size_t splits = 0;; ++splits) {
    const std::size_t at = splits < max_splits ? line.find(sep) : std::string_view::npos;
    fields.push_back(trim(line.substr(0, at)));
    if (at == std::string_view::npos) return fields;
    line.remove_prefix(at + 1);
  }
}

namespace {

// One quoted field starting at line[at] == '"'; returns its text and moves `at` past the closing quote.
std::string quoted_field(std::string_view line, std::size_t& at, const std::string& file, int number) {
  std::string field;
  for (++at; at < line.size(); ++at) {
    if (line[at] != '"') {
      field += line[at];
    } else if (at + 1 < line.size() && line[at + 1] == '"') {
      field += '"';
      ++at;
    } else {
      ++at;
      return field;
    }
  }
  throw InputError(file, line_path(number), "quote not closed: expected '\"' before the end of the line");
}

}  // namespace

std::vector<std::string> split_csv_fields(std::string_view line, const std::string& file, int number) {
  std::vector<std::string> fields;
  std::size_t at = 0;
  while (true) {
    while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
    if (at < line.size() && line[at] == '"') {
      fields.push_back(quoted_field(line, at, file, number));
      while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
      if (at < line.size() && line[at] != ',')
        throw InputError(file, line_path(number),
                         "text after a closing quote: expected ',' or the end of the line");
    } else {
      const std::size_t end = std::min(line.find(',', at), line.size());
      fields.push_back(trim(line.substr(at, end - at)));
      at = end;
    }
    if (at >= line.size()) return fields;
    ++at;  // the comma
  }
}

double parse_ms(std::string_view field, const std::string& file, int number, std::string_view column) {
  double ms = 0.0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), ms);
  if (field.empty() || ec != std::errc() || end != field.data() + field.size())
    throw InputError(file, line_path(number),
                     fmt::format("{} '{}': expected a number of milliseconds", column, field));
  if (!std::isfinite(ms) || ms <= 0.0)
    throw InputError(file, line_path(number),
                     fmt::format("{} {}: expected a finite time > 0", column, field));
  return ms;
}

}  // namespace coinfer
