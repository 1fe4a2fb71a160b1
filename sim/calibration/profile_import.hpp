#pragma once
/// Per-layer latency profiles measured on a real device, read from the formats tools write:
/// - `csv`: a plain `layer,ms` file (header `layer,ms`; one row per layer, milliseconds per run);
/// - `torch-trace`: the Chrome trace `torch.profiler.profile(...).export_chrome_trace(path)` writes;
///   rows are the `user_annotation` events (`record_function(name)` ranges: one per layer when the
///   profiling script names them) when there are any, else the top-level `cpu_op` events (not
///   nested in another cpu_op of the same thread), in start order; a trace of several steps
///   (`ProfilerStep#k` annotations) gives, per position, the mean over the steps;
/// - `tflite-csv`: TFLite `benchmark_model --enable_op_profiling=true
///   --profiling_output_csv_file=F` output, the "Run Order" section (node type, avg ms, name).
/// Every problem is an `InputError` naming the file and its line (or event index).
///
///     Profile p = read_profile("pixel.csv", ProfileFormat::Csv);
///     p.rows[0].name == "conv1"; p.rows[0].ms == 4.2; p.sha256.size() == 64;
///
/// Details: `csv` allows `#` comment lines, blank lines and RFC 4180 quoted names (`"conv2, 3x3"`,
/// `""` for a quote), and refuses a layer named twice. `torch-trace` also reads the bare-array
/// layout PyTorch writes when built without Kineto (sim/calibration/torch_trace.hpp has the rules).
/// Layouts as documented by their writers: PyTorch's `torch.profiler` and
/// `torch.autograd.profiler_util.EventList.export_chrome_trace`, the Trace Event Format (Chrome
/// tracing), TFLite's `benchmark_model` README, its ProfilingListener and
/// `tensorflow::StatsCalculator` (the CSV tables of ProfileSummaryCSVFormatter).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coinfer {

enum class ProfileFormat { Csv, TorchTrace, TfliteCsv };

struct ProfileRow {
  std::string name;     ///< the layer / node / annotation name as the profile gives it
  std::string op_type;  ///< torch: the aten op ("aten::conv2d"); tflite: node type; csv: empty
  double ms = 0.0;      ///< mean milliseconds per run, > 0
  int line = 0;         ///< 1-based line of the file (torch-trace: 1-based index in traceEvents)
};

struct Profile {
  ProfileFormat format = ProfileFormat::Csv;
  std::string file;    ///< the path it was read from
  std::string sha256;  ///< lowercase hex SHA-256 of the file's bytes (provenance)
  std::vector<ProfileRow> rows;
};

/// `csv`, `torch-trace`, `tflite-csv`.
std::string_view profile_format_name(ProfileFormat format);
std::optional<ProfileFormat> profile_format_from_name(std::string_view name);
std::vector<std::string> profile_format_names();

/// Reads and validates a profile; throws `InputError(file, "line N", ...)` on a bad row, an
/// empty profile, a non-positive or non-finite time, or a file that is not of the format.
Profile read_profile(const std::string& path, ProfileFormat format);
/// Parses `text` as if read from `file` (tests; `read_profile` reads the file and calls this).
Profile parse_profile(const std::string& text, const std::string& file, ProfileFormat format);

}  // namespace coinfer
