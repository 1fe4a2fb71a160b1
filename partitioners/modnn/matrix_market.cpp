#include "partitioners/modnn/matrix_market.hpp"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

constexpr std::int64_t kMaxMarketDimension = 2147483647;  // rows * cols then fits int64
constexpr std::string_view kHeaderForm =
    "'%%MatrixMarket matrix coordinate <pattern|real|integer> <general|symmetric|skew-symmetric>'";

/// Walks a text line by line (without the '\n' and a trailing '\r'), counting lines from 1.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    const char* begin = text_.data() + pos_;
    const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', text_.size() - pos_));
    std::size_t length = newline ? std::size_t(newline - begin) : text_.size() - pos_;
    pos_ += length + (newline ? 1 : 0);
    ++number_;
    if (length > 0 && begin[length - 1] == '\r') --length;
    line = std::string_view(begin, length);
    return true;
  }
  /// The next line that is neither blank nor a `%` comment.
  bool next_content(std::string_view& line) {
    while (next(line))
      if (!is_skipped(line)) return true;
    return false;
  }
  std::int64_t number() const { return number_; }

  static bool is_skipped(std::string_view line) {
    const auto first = line.find_first_not_of(" \t");
    return first == std::string_view::npos || line[first] == '%';
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::int64_t number_ = 0;
};

/// The blank-separated fields of one line.
class Fields {
 public:
  explicit Fields(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}

  /// The next field, or an empty view at the end of the line.
  std::string_view next() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t')) ++p_;
    const char* begin = p_;
    while (p_ < end_ && *p_ != ' ' && *p_ != '\t') ++p_;
    return {begin, std::size_t(p_ - begin)};
  }

 private:
  const char* p_;
  const char* end_;
};

/// Throws the error of line `line` of `file`.
[[noreturn]] void fail(const std::string& file, std::int64_t line, const std::string& message) {
  throw InputError(file, fmt::format("line {}", line), message);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// A leading '+' is valid in the format but not for std::from_chars.
std::string_view without_plus(std::string_view field) {
  return field.size() > 1 && field[0] == '+' && field[1] != '-' ? field.substr(1) : field;
}

/// An integer field; `what` names it in errors.
std::int64_t parse_integer(std::string_view field, const std::string& file, std::int64_t line,
                           std::string_view what) {
  const auto digits = without_plus(field);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range)
    fail(file, line, fmt::format("{}: integer out of range ({})", what, field));
  if (ec != std::errc() || end != digits.data() + digits.size())
    fail(file, line, fmt::format("{}: expected an integer, got '{}'", what, field));
  return value;
}

/// A real field: finite, at most about 1.8e308 in magnitude (an underflow reads as its rounding).
double parse_real(std::string_view field, const std::string& file, std::int64_t line) {
  const auto digits = without_plus(field);
  double value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range && end == digits.data() + digits.size()) {
    // from_chars reports both overflow and underflow; strtod tells them apart.
    const std::string copy(digits);
    value = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(value)) fail(file, line, fmt::format("value: number out of range ({})", field));
    return value;
  }
  if (ec != std::errc() || end != digits.data() + digits.size())
    fail(file, line, fmt::format("value: expected a number, got '{}'", field));
  if (!std::isfinite(value))
    fail(file, line, fmt::format("value: expected a finite number, got '{}'", field));
  return value;
}

struct Header {
  MatrixMarketField field = MatrixMarketField::kPattern;
  MatrixMarketSymmetry symmetry = MatrixMarketSymmetry::kGeneral;
};

Header parse_header(std::string_view line, const std::string& file) {
  Fields fields(line);
  const auto banner = fields.next();
  if (lower(banner) != "%%matrixmarket")
    fail(file, 1, fmt::format("expected the Matrix Market header {}", kHeaderForm));
  const auto object = lower(fields.next()), format = lower(fields.next());
  const auto field = lower(fields.next()), symmetry = lower(fields.next());
  if (symmetry.empty() || !fields.next().empty())
    fail(file, 1, fmt::format("expected the Matrix Market header {}", kHeaderForm));
  if (object != "matrix") fail(file, 1, fmt::format("object '{}' is not supported; expected matrix", object));
  if (format != "coordinate")
    fail(file, 1, fmt::format("format '{}' is not supported; expected coordinate (sparse)", format));
  Header h;
  if (field == "pattern") {
    h.field = MatrixMarketField::kPattern;
  } else if (field == "real" || field == "double") {
    h.field = MatrixMarketField::kReal;
  } else if (field == "integer") {
    h.field = MatrixMarketField::kInteger;
  } else {
    fail(file, 1, fmt::format("field '{}' is not supported; expected pattern, real or integer", field));
  }
  if (symmetry == "general") {
    h.symmetry = MatrixMarketSymmetry::kGeneral;
  } else if (symmetry == "symmetric") {
    h.symmetry = MatrixMarketSymmetry::kSymmetric;
  } else if (symmetry == "skew-symmetric" && h.field != MatrixMarketField::kPattern) {
    h.symmetry = MatrixMarketSymmetry::kSkewSymmetric;
  } else {
    fail(file, 1,
         fmt::format("symmetry '{}' is not supported with field '{}'; expected general, symmetric or "
                     "skew-symmetric (not with pattern)",
                     symmetry, field));
  }
  return h;
}

/// Most entries a `rows x cols` file may store (the lower triangle when symmetric).
std::int64_t max_entries(std::int64_t rows, std::int64_t cols, MatrixMarketSymmetry symmetry) {
  switch (symmetry) {
    case MatrixMarketSymmetry::kSymmetric:
      return rows * (rows + 1) / 2;
    case MatrixMarketSymmetry::kSkewSymmetric:
      return rows * (rows - 1) / 2;
    case MatrixMarketSymmetry::kGeneral:
      break;
  }
  return rows * cols;
}

/// Line of the `entry`-th entry line (0-based) of a file whose header and size line parsed.
std::int64_t line_of_entry(std::string_view text, std::size_t entry) {
  LineReader lines(text);
  std::string_view line;
  lines.next(line);          // header
  lines.next_content(line);  // size line
  for (std::size_t e = 0; e <= entry; ++e) lines.next_content(line);
  return lines.number();
}

/// (later, earlier) entry indices of a repeated (row, col) with the smallest later index, if any.
/// O(entries + rows + cols): a sorted file is checked in one pass, any other is bucketed by row.
std::optional<std::pair<std::size_t, std::size_t>> find_duplicate(const std::vector<NonZero>& entries,
                                                                  std::int64_t rows, std::int64_t cols) {
  auto row_major = [](const NonZero& a, const NonZero& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  };
  auto col_major = [](const NonZero& a, const NonZero& b) {
    return a.col != b.col ? a.col < b.col : a.row < b.row;
  };
  bool by_row = true, by_col = true;
  for (std::size_t e = 1; e < entries.size() && (by_row || by_col); ++e) {
    by_row = by_row && row_major(entries[e - 1], entries[e]);
    by_col = by_col && col_major(entries[e - 1], entries[e]);
  }
  if (by_row || by_col) return std::nullopt;  // strictly increasing: all distinct

  std::vector<std::size_t> start(std::size_t(rows) + 1, 0), order(entries.size());
  for (const auto& nz : entries) ++start[std::size_t(nz.row) + 1];
  for (std::size_t r = 0; r < std::size_t(rows); ++r) start[r + 1] += start[r];
  {
    auto fill = start;
    for (std::size_t e = 0; e < entries.size(); ++e) order[fill[std::size_t(entries[e].row)]++] = e;
  }
  // Within a row, entries come in file order: the first one seen at a column is the earlier one.
  std::vector<std::int64_t> seen_row(std::size_t(cols), -1);
  std::vector<std::size_t> seen_entry(std::size_t(cols), 0);
  std::optional<std::pair<std::size_t, std::size_t>> found;
  for (std::size_t r = 0; r < std::size_t(rows); ++r)
    for (std::size_t t = start[r]; t < start[r + 1]; ++t) {
      const std::size_t e = order[t];
      const auto c = std::size_t(entries[e].col);
      if (seen_row[c] != std::int64_t(r)) {
        seen_row[c] = std::int64_t(r);
        seen_entry[c] = e;
      } else if (!found || e < found->first) {
        found = std::pair{e, seen_entry[c]};
      }
    }
  return found;
}

/// Appends every off-diagonal entry's mirror right after it.
void expand_symmetric(MatrixMarket& m) {
  const bool skew = m.symmetry == MatrixMarketSymmetry::kSkewSymmetric;
  const bool values = !m.values.empty();
  std::vector<NonZero> entries;
  std::vector<double> vals;
  entries.reserve(2 * m.entries.size());
  if (values) vals.reserve(2 * m.entries.size());
  for (std::size_t e = 0; e < m.entries.size(); ++e) {
    const auto nz = m.entries[e];
    entries.push_back(nz);
    if (values) vals.push_back(m.values[e]);
    if (nz.row == nz.col) continue;
    entries.push_back({nz.col, nz.row});
    if (values) vals.push_back(skew ? -m.values[e] : m.values[e]);
  }
  m.entries = std::move(entries);
  m.values = std::move(vals);
}

}  // namespace

MatrixMarket parse_matrix_market(std::string_view text, const std::string& file,
                                 const MatrixMarketOptions& options) {
  assert(options.max_dimension >= 1);
  const auto max_dimension = std::min(options.max_dimension, kMaxMarketDimension);
  LineReader lines(text);
  std::string_view line;
  if (!lines.next(line)) fail(file, 1, fmt::format("empty file; expected the header {}", kHeaderForm));
  const Header header = parse_header(line, file);
  MatrixMarket m;
  m.field = header.field;
  m.symmetry = header.symmetry;

  if (!lines.next_content(line))
    fail(file, lines.number() + 1, "the file ends before the size line 'rows cols entries'");
  const auto size_line = lines.number();
  Fields size(line);
  const auto rows_text = size.next(), cols_text = size.next(), count_text = size.next();
  if (count_text.empty() || !size.next().empty())
    fail(file, size_line,
         fmt::format("expected the size line 'rows cols entries' (3 integers), got '{}'", line));
  m.rows = parse_integer(rows_text, file, size_line, "rows");
  m.cols = parse_integer(cols_text, file, size_line, "cols");
  const auto declared = parse_integer(count_text, file, size_line, "entries");
  for (const auto& [name, value] : {std::pair{"rows", m.rows}, std::pair{"cols", m.cols}})
    if (value < 1 || value > max_dimension)
      fail(file, size_line, fmt::format("{} {} outside [1, {}]", name, value, max_dimension));
  if (m.symmetry != MatrixMarketSymmetry::kGeneral && m.rows != m.cols)
    fail(file, size_line, fmt::format("a symmetric matrix must be square, got {} x {}", m.rows, m.cols));
  const auto most = max_entries(m.rows, m.cols, m.symmetry);
  if (declared < 0 || declared > most)
    fail(file, size_line,
         fmt::format("entries {} outside [0, {}] (what a {} x {} {} file can hold)", declared, most, m.rows,
                     m.cols, m.symmetry == MatrixMarketSymmetry::kGeneral ? "general" : "triangle of a"));

  // Never reserve more than the text can hold: an entry line takes at least 4 characters ("1 1\n").
  const auto capacity = std::min<std::uint64_t>(std::uint64_t(declared), text.size() / 4 + 1);
  m.entries.reserve(capacity);
  const bool has_value = m.field != MatrixMarketField::kPattern;
  const bool keep = has_value && options.keep_values;
  if (keep) m.values.reserve(capacity);
  const std::size_t want_fields = has_value ? 3 : 2;
  const bool lower_only = m.symmetry != MatrixMarketSymmetry::kGeneral;
  const bool strict_lower = m.symmetry == MatrixMarketSymmetry::kSkewSymmetric;
  while (lines.next_content(line)) {
    const auto at = lines.number();
    if (std::int64_t(m.entries.size()) == declared)
      fail(file, at,
           fmt::format("more entries than the {} the size line (line {}) declares", declared, size_line));
    Fields fields(line);
    const auto row_text = fields.next(), col_text = fields.next();
    const auto value_text = has_value ? fields.next() : std::string_view{};
    if (col_text.empty() || (has_value && value_text.empty()) || !fields.next().empty())
      fail(file, at,
           fmt::format("expected '{}' ({} fields), got '{}'", has_value ? "row col value" : "row col",
                       want_fields, line));
    const auto row = parse_integer(row_text, file, at, "row");
    const auto col = parse_integer(col_text, file, at, "col");
    if (row < 1 || row > m.rows) fail(file, at, fmt::format("row {} outside [1, {}]", row, m.rows));
    if (col < 1 || col > m.cols) fail(file, at, fmt::format("col {} outside [1, {}]", col, m.cols));
    if (lower_only && (row < col || (strict_lower && row == col)))
      fail(file, at,
           fmt::format("entry ({}, {}) is {}; a {} file stores only entries with row {} col", row, col,
                       row == col ? "on the diagonal" : "above the diagonal",
                       strict_lower ? "skew-symmetric" : "symmetric", strict_lower ? ">" : ">="));
    if (has_value) {
      const double v = m.field == MatrixMarketField::kReal
                           ? parse_real(value_text, file, at)
                           : double(parse_integer(value_text, file, at, "value"));
      if (!(std::fabs(v) <= options.max_abs_value))
        fail(file, at,
             fmt::format("value: {} outside [{}, {}]", value_text, -options.max_abs_value,
                         options.max_abs_value));
      if (keep) m.values.push_back(v);
    }
    m.entries.push_back({row - 1, col - 1});
  }
  if (std::int64_t(m.entries.size()) != declared)
    fail(file, std::max<std::int64_t>(lines.number(), 1),
         fmt::format("the file ends after {} of the {} entries the size line (line {}) declares",
                     m.entries.size(), declared, size_line));
  if (!options.allow_duplicates)
    if (const auto dup = find_duplicate(m.entries, m.rows, m.cols)) {
      const auto& nz = m.entries[dup->first];
      fail(file, line_of_entry(text, dup->first),
           fmt::format("duplicate entry ({}, {}), first on line {}", nz.row + 1, nz.col + 1,
                       line_of_entry(text, dup->second)));
    }
  if (m.symmetry != MatrixMarketSymmetry::kGeneral) expand_symmetric(m);
  return m;
}

MatrixMarket read_matrix_market(const std::string& file, const MatrixMarketOptions& options) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(file.c_str(), "rb"), &std::fclose);
  if (!f) throw InputError(file, "", fmt::format("cannot open the matrix file: {}", std::strerror(errno)));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw InputError(file, "", "cannot read the matrix file: not a regular file");
  std::string text;
  if (std::fseek(f.get(), 0, SEEK_END) == 0) {
    const long size = std::ftell(f.get());
    if (size > 0) text.resize(std::size_t(size));
    std::rewind(f.get());
  }
  const std::size_t got = text.empty() ? 0 : std::fread(text.data(), 1, text.size(), f.get());
  if (got != text.size() || std::ferror(f.get())) throw InputError(file, "", "cannot read the matrix file");
  return parse_matrix_market(text, file, options);
}

std::string matrix_market_text(const SparsePattern& pattern, const std::vector<float>* values,
                               std::string_view comment) {
  assert(!values || values->size() == pattern.entries.size());
  fmt::memory_buffer out;
  fmt::format_to(std::back_inserter(out), "%%MatrixMarket matrix coordinate {} general\n",
                 values ? "real" : "pattern");
  for (std::size_t begin = 0; begin < comment.size();) {
    const auto end = std::min(comment.find('\n', begin), comment.size());
    fmt::format_to(std::back_inserter(out), "% {}\n", comment.substr(begin, end - begin));
    begin = end + 1;
  }
  fmt::format_to(std::back_inserter(out), "{} {} {}\n", pattern.rows, pattern.cols, pattern.entries.size());
  for (std::size_t e = 0; e < pattern.entries.size(); ++e) {
    const auto& nz = pattern.entries[e];
    if (values)
      fmt::format_to(std::back_inserter(out), "{} {} {:.9g}\n", nz.row + 1, nz.col + 1, (*values)[e]);
    else
      fmt::format_to(std::back_inserter(out), "{} {}\n", nz.row + 1, nz.col + 1);
  }
  return fmt::to_string(out);
}

}  // namespace coinfer::modnn
