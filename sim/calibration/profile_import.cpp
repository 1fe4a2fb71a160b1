// Reading per-layer profiles. The layouts, as the tools write them:
// - torch-trace: see sim/calibration/torch_trace.hpp.
// - tflite-csv: `benchmark_model` (tensorflow/lite/tools/benchmark) has its ProfilingListener write
//   the line `Operator-wise Profiling Info for Regular Benchmark Runs:` and then the run summarizer's
//   output; with `--profiling_output_csv_file` the summarizer uses ProfileSummaryCSVFormatter, so
//   tensorflow::StatsCalculator prints each table as `============================== Run Order
//   ==============================`, the header `node type, start, first, avg_ms, %, cdf%, mem KB,
//   times called, name`, then one `, `-separated line per node in run order, then a blank line
//   (then the "Top by Computation Time" table and the "Summary by node type"). The initialization
//   section ("Profiling Info for Benchmark Initialization:") comes first and is not a row.
#include "sim/calibration/profile_import.hpp"

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "sim/calibration/profile_text.hpp"
#include "sim/calibration/torch_trace.hpp"
#include "sim/core/error.hpp"
#include "sim/core/sha256.hpp"

namespace coinfer {
namespace {

constexpr std::array<std::pair<ProfileFormat, std::string_view>, 3> kFormats{{
    {ProfileFormat::Csv, "csv"},
    {ProfileFormat::TorchTrace, "torch-trace"},
    {ProfileFormat::TfliteCsv, "tflite-csv"},
}};

constexpr std::string_view kTfliteSection = "Operator-wise Profiling Info for Regular Benchmark Runs:";
constexpr std::string_view kTfliteHeader =
    "node type, start, first, avg_ms, %, cdf%, mem KB, times called, name";

// csv: `layer,ms` after optional `#` comment and blank lines; fields may be quoted.
std::vector<ProfileRow> csv_rows(const std::vector<TextLine>& lines, const std::string& file) {
  std::vector<ProfileRow> rows;
  std::map<std::string, int> seen;  // layer name -> line it was first given on
  int header = 0;                   // its line number, once read
  for (const TextLine& l : lines) {
    if (is_blank_or_comment(l.text)) continue;
    const std::vector<std::string> fields = split_csv_fields(l.text, file, l.number);
    if (header == 0) {
      if (fields != std::vector<std::string>{"layer", "ms"})
        throw InputError(file, line_path(l.number), fmt::format("header '{}': expected 'layer,ms'", l.text));
      header = l.number;
      continue;
    }
    if (fields.size() != 2)
      throw InputError(file, line_path(l.number),
                       fmt::format("{} fields: expected 2 (layer name, milliseconds)", fields.size()));
    if (fields[0].empty()) throw InputError(file, line_path(l.number), "empty layer name");
    if (const auto [it, fresh] = seen.emplace(fields[0], l.number); !fresh)
      throw InputError(file, line_path(l.number),
                       fmt::format("layer '{}' again: it has a time on line {}", fields[0], it->second));
    rows.push_back({fields[0], "", parse_ms(fields[1], file, l.number, "ms"), l.number});
  }
  if (header == 0)
    throw InputError(file, "", "empty profile: expected the header 'layer,ms' and one row per layer");
  if (rows.empty())
    throw InputError(file, line_path(header), "empty profile: expected one row per layer after the header");
  return rows;
}

// The line index (0-based) of the Run Order table's header in the regular-runs section.
std::size_t tflite_header_index(const std::vector<TextLine>& lines, const std::string& file) {
  std::size_t i = 0;
  while (i < lines.size() && lines[i].text.find(kTfliteSection) == std::string::npos) ++i;
  if (i == lines.size())
    throw InputError(file, "",
                     fmt::format("no line '{}': expected benchmark_model --enable_op_profiling=true "
                                 "--profiling_output_csv_file output",
                                 kTfliteSection));
  const int section = lines[i].number;
  while (i < lines.size() && lines[i].text.find("= Run Order =") == std::string::npos) ++i;
  if (i == lines.size())
    throw InputError(file, line_path(section), "no 'Run Order' table after this section's title");
  if (i + 1 == lines.size())
    throw InputError(file, line_path(lines[i].number),
                     fmt::format("expected the header '{}' next", kTfliteHeader));
  return i + 1;
}

// The columns of the header line `node type, start, first, avg_ms, ...`, `name` last.
struct TfliteColumns {
  std::size_t count = 0, type = 0, avg_ms = 0;
};

TfliteColumns tflite_columns(const TextLine& header, const std::string& file) {
  std::vector<std::string> names = split_trimmed(header.text, ',');
  TfliteColumns c{names.size(), names.size(), names.size()};
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (names[k] == "node type") c.type = k;
    if (names[k] == "avg_ms") c.avg_ms = k;
  }
  if (c.type == c.count || c.avg_ms == c.count || names.back() != "name")
    throw InputError(file, line_path(header.number),
                     fmt::format("Run Order header '{}': expected '{}'", header.text, kTfliteHeader));
  return c;
}

// tflite-csv: the Run Order table of the regular-runs section, up to its blank line. The name is
// the last column and may itself hold commas, so a row is split into count - 1 fields and the rest.
// Nodes at 0.000 ms go to `below_resolution`.
std::vector<ProfileRow> tflite_rows(const std::vector<TextLine>& lines, const std::string& file,
                                    std::vector<ProfileRow>& below_resolution) {
  const std::size_t h = tflite_header_index(lines, file);
  const TfliteColumns c = tflite_columns(lines[h], file);
  std::vector<ProfileRow> rows;
  for (std::size_t i = h + 1; i < lines.size() && !is_blank(lines[i].text); ++i) {
    const TextLine& l = lines[i];
    if (l.text.front() == '=') break;
    std::vector<std::string> fields = split_trimmed(l.text, ',', c.count - 1);
    if (fields.size() != c.count)
      throw InputError(file, line_path(l.number),
                       fmt::format("{} fields: expected {} ('{}')", fields.size(), c.count, kTfliteHeader));
    if (fields[c.type].empty() || fields.back().empty())
      throw InputError(file, line_path(l.number), "empty node type or name");
    ProfileRow row{fields.back(), fields[c.type],
                   parse_ms_or_zero(fields[c.avg_ms], file, l.number, "avg_ms"), l.number};
    (row.ms > 0.0 ? rows : below_resolution).push_back(std::move(row));
  }
  if (rows.empty())
    throw InputError(file, line_path(lines[h].number), "empty profile: the Run Order table has no nodes");
  return rows;
}

}  // namespace

std::string_view profile_format_name(ProfileFormat format) {
  for (const auto& [f, name] : kFormats)
    if (f == format) return name;
  return "unknown";
}

std::optional<ProfileFormat> profile_format_from_name(std::string_view name) {
  for (const auto& [f, n] : kFormats)
    if (n == name) return f;
  return std::nullopt;
}

std::vector<std::string> profile_format_names() {
  std::vector<std::string> names;
  for (const auto& [f, name] : kFormats) names.emplace_back(name);
  return names;
}

Profile parse_profile(const std::string& text, const std::string& file, ProfileFormat format) {
  Profile p{format, file, sha256_hex(text), {}, {}};
  switch (format) {
    case ProfileFormat::Csv:
      p.rows = csv_rows(split_lines(text), file);
      break;
    case ProfileFormat::TfliteCsv:
      p.rows = tflite_rows(split_lines(text), file, p.below_resolution);
      break;
    case ProfileFormat::TorchTrace:
      p.rows = torch_trace_rows(text, file);
      break;
  }
  return p;
}

Profile read_profile(const std::string& path, ProfileFormat format) {
  // The error_code overloads: the throwing ones raise filesystem_error for a name too long.
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    throw InputError(path, "",
                     fmt::format("is a directory, expected a {} profile", profile_format_name(format)));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, "", fmt::format("cannot open file (a {} profile)", profile_format_name(format)));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return parse_profile(bytes.str(), path, format);
}

}  // namespace coinfer
