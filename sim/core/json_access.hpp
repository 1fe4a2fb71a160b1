#pragma once
/// Checked access to JSON values coming from users. Every accessor takes the key path of
/// the object it reads from and throws `InputError` naming the full path and what was
/// expected, e.g. `layers[12].stride: expected 1 or 2 integers`.
///
///     const auto n = json_int(problem, "layers", "", 1);           // >= 1
///     const auto t = json_number_array(problem, "upload_time", "");
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace coinfer {

using Json = nlohmann::json;

/// The value at `obj[key]`; throws `path.key: missing key` when absent,
/// `path: expected an object` when `obj` is not an object.
const Json& json_at(const Json& obj, std::string_view key, const std::string& path);
/// Null when `key` is absent or JSON null.
const Json* json_find(const Json& obj, std::string_view key, const std::string& path);

/// Integer in [min, max]; floats with a fractional part are rejected, and an integer beyond int64
/// (2^70, or an unsigned above 2^63-1) is `integer out of range`.
std::int64_t json_int(const Json& obj, std::string_view key, const std::string& path,
                      std::int64_t min = INT64_MIN, std::int64_t max = INT64_MAX);
std::int64_t json_int_or(const Json& obj, std::string_view key, const std::string& path,
                         std::int64_t fallback, std::int64_t min = INT64_MIN, std::int64_t max = INT64_MAX);
/// Finite number in [min, max].
double json_number(const Json& obj, std::string_view key, const std::string& path, double min = -1e308,
                   double max = 1e308);
double json_number_or(const Json& obj, std::string_view key, const std::string& path, double fallback,
                      double min = -1e308, double max = 1e308);
std::optional<double> json_optional_number(const Json& obj, std::string_view key, const std::string& path,
                                           double min = -1e308, double max = 1e308);
bool json_bool_or(const Json& obj, std::string_view key, const std::string& path, bool fallback);
std::string json_string(const Json& obj, std::string_view key, const std::string& path);
std::string json_string_or(const Json& obj, std::string_view key, const std::string& path,
                           std::string fallback);
/// One of `allowed`; the error lists them.
std::string json_enum(const Json& obj, std::string_view key, const std::string& path,
                      const std::vector<std::string>& allowed);

/// Array of finite numbers in [min, max]; `expected_size` < 0 means any length.
std::vector<double> json_number_array(const Json& obj, std::string_view key, const std::string& path,
                                      long expected_size = -1, double min = -1e308, double max = 1e308);
std::vector<std::int64_t> json_int_array(const Json& obj, std::string_view key, const std::string& path,
                                         long expected_size = -1, std::int64_t min = INT64_MIN,
                                         std::int64_t max = INT64_MAX);
/// Array of arrays of numbers; row sizes are checked by the caller.
std::vector<std::vector<double>> json_number_matrix(const Json& obj, std::string_view key,
                                                    const std::string& path, double min = -1e308,
                                                    double max = 1e308);

/// Throws `path: unknown key 'k'; expected one of a, b, c` for any key not in `allowed`.
void json_reject_unknown_keys(const Json& obj, const std::string& path,
                              const std::vector<std::string>& allowed);

/// Value checks on an already-extracted element (used by the accessors; also handy directly).
std::int64_t json_as_int(const Json& v, const std::string& path, std::int64_t min = INT64_MIN,
                         std::int64_t max = INT64_MAX);
double json_as_number(const Json& v, const std::string& path, double min = -1e308, double max = 1e308);

/// Deepest nesting of arrays and objects a JSON (or YAML) input may have. No coinfer file goes
/// beyond 6 levels; the limit stops a hostile `[[[[...` long before recursive code (copies, dumps,
/// yaml-cpp) could exhaust the stack.
inline constexpr std::size_t kMaxJsonDepth = 256;

/// Parses `text` as JSON; syntax errors become `InputError(file, "", "not valid JSON: ...")`.
/// A number beyond double (`1e400`) is `InputError(file, "layers[1].padding", "number out of
/// range (1e400)")`; nesting deeper than kMaxJsonDepth is `... nested too deeply ...` at its path.
Json parse_json_text(const std::string& text, const std::string& file);
/// Reads and parses a JSON file; a missing file or bad syntax throws `InputError`.
Json read_json_file(const std::string& file);

}  // namespace coinfer
