#pragma once
/// Line-oriented helpers for the text profile formats (csv, tflite-csv): lines with their numbers,
/// field splitting with CSV quoting, and checked millisecond values. Private to sim/calibration.
///
///     for (const TextLine& l : split_lines(text)) split_csv_fields(l.text, file, l.number);
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace coinfer {

struct TextLine {
  int number = 0;    ///< 1-based
  std::string text;  ///< without the line break (`\n` or `\r\n`)
};

/// The lines of `text`; a final line break does not start another line.
std::vector<TextLine> split_lines(std::string_view text);
/// `line 7`: the key path of a line in errors.
std::string line_path(int number);
/// Only spaces and tabs.
bool is_blank(std::string_view line);
/// Blank, or its first non-blank character is `#`.
bool is_blank_or_comment(std::string_view line);
/// `text` without leading and trailing spaces and tabs.
std::string trim(std::string_view text);
/// Fields separated by `sep`, each trimmed; after `max_splits` separators the rest is one field.
/// `split_trimmed("a, b, c", ',', 1) == {"a", "b, c"}`.
std::vector<std::string> split_trimmed(std::string_view line, char sep,
                                       std::size_t max_splits = std::string_view::npos);
/// Comma-separated fields as RFC 4180 quotes them: a field may be `"..."` (holding commas, `""` for a
/// quote); unquoted fields are trimmed. A quote left open or text after a closing quote throws
/// `InputError(file, "line N", ...)`. A quoted field cannot span lines.
std::vector<std::string> split_csv_fields(std::string_view line, const std::string& file, int number);
/// `field` as a number of milliseconds, finite and > 0; else `InputError(file, "line N", ...)`
/// naming `column`.
double parse_ms(std::string_view field, const std::string& file, int number, std::string_view column);

}  // namespace coinfer
