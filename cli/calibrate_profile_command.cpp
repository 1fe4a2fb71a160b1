// `coinfer calibrate --from-profile`: see calibrate_profile_command.hpp.
#include "cli/calibrate_profile_command.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "cli/host_profile_source.hpp"
#include "sim/calibration/calibrate.hpp"
#include "sim/calibration/calibration_json.hpp"
#include "sim/calibration/profile_fit.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/metrics/percentile.hpp"
#include "sim/profile/estimate_normalization.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

namespace fs = std::filesystem;

std::string format_list() { return fmt::format("{}", fmt::join(profile_format_names(), ", ")); }

ProfileFormat format_by_name(const std::string& name) {
  const auto f = profile_format_from_name(name);
  if (!f)
    throw InputError("", "--format",
                     fmt::format("unknown format '{}'; expected one of {}", name, format_list()));
  return *f;
}

// --format: none (by extension: .csv -> csv, .json -> torch-trace), one for every profile, or
// one per profile.
ProfileFormat format_of(const FromProfileOptions& opts, std::size_t k) {
  if (opts.formats.size() == 1) return format_by_name(opts.formats[0]);
  if (!opts.formats.empty()) return format_by_name(opts.formats.at(k));
  const auto ext = fs::path(opts.profiles[k]).extension().string();
  if (ext == ".csv") return ProfileFormat::Csv;
  if (ext == ".json") return ProfileFormat::TorchTrace;
  throw InputError(opts.profiles[k], "--format",
                   fmt::format("cannot tell the format from the extension '{}'; give --format (one of {})",
                               ext, format_list()));
}

void check_counts(const FromProfileOptions& opts) {
  if (opts.models.size() != opts.profiles.size())
    throw InputError("", "--model",
                     fmt::format("expected one --model per --from-profile (the k-th model is the k-th "
                                 "profile's), got {} --model for {} --from-profile",
                                 opts.models.size(), opts.profiles.size()));
  if (opts.formats.size() > 1 && opts.formats.size() != opts.profiles.size())
    throw InputError("", "--format",
                     fmt::format("expected one --format for all profiles or one per --from-profile, got {} "
                                 "for {}",
                                 opts.formats.size(), opts.profiles.size()));
  if (opts.output.empty())
    throw InputError("", "-o", "expected the calibration file to write, e.g. -o mydev.json");
  const std::string stem = fs::path(opts.output).stem().string();
  if (!opts.name.empty() && opts.name != stem)  // platforms/calibration/README.md: one file per device
    throw InputError("", "--name",
                     fmt::format("expected '{}', the stem of -o (a device lives in <name>.json), got '{}'",
                                 stem, opts.name));
  if (opts.idle_w < 0.0 || opts.busy_w < 0.0)
    throw InputError("", "--idle-w/--busy-w",
                     "expected the device's power draw in watts, e.g. --idle-w 2 --busy-w 6");
  if (opts.held_out && opts.profiles.size() < 2)
    throw InputError("", "--held-out", "expected profiles of at least 2 models (one is left out at a time)");
}

// `model` (a zoo name, or a model file as given) with the profile measured on it.
ProfiledModel profiled(const std::string& model, Profile profile) {
  ReferenceFigure named;
  named.model = model;
  return {model, figure_graph(named, ""), std::move(profile)};
}

std::vector<ProfiledModel> load_inputs(const FromProfileOptions& opts) {
  std::vector<ProfiledModel> out;
  for (std::size_t k = 0; k < opts.profiles.size(); ++k)
    out.push_back(profiled(opts.models[k], read_profile(opts.profiles[k], format_of(opts, k))));
  return out;
}

// Host times: the deterministic estimate, or this host's kernels put on the estimate basis
// (per op class, estimate_normalization.hpp), so the fitted op_scale is on the basis every
// scenario uses either way.
HostProfileSource host_times(const std::string& basis, int repeats) {
  const HostProfileSource source = make_host_profile_source(basis, repeats);
  if (basis == "estimate") return source;
  return [source](const Graph& g) { return normalize_to_estimate(g, source(g)); };
}

std::string ms(double seconds) { return fmt::format("{:.4g}", seconds * 1e3); }

void print_match(const ModelMatch& m, const Profile& profile) {
  std::cout << fmt::format("{} ({}, model {}): {} rows matched by {}\n", profile.file,
                           profile_format_name(profile.format), m.model, m.rows.size(), m.match_by);
  TextTable t({"row", "our layers", "measured ms", "predicted ms", "residual"},
              {false, false, true, true, true});
  for (const auto& r : m.rows)
    t.add_row({r.row.name, fmt::format("{}", fmt::join(r.layers, " ")), ms(r.measured_s), ms(r.predicted_s),
               fmt::format("{:+.2f}%", r.residual_pct)});
  std::cout << t.str();
  for (const auto& f : m.fused) std::cout << "  fused: " << f << "\n";
  for (const auto& r : profile.below_resolution)
    std::cout << fmt::format(
        "  not fitted: row '{}' ({}, line {}) at 0.000 ms, below the profile's resolution\n", r.name,
        r.op_type, r.line);
  if (!m.unmatched.empty())
    std::cout << fmt::format("  unmatched layers (no row times them): {}\n", fmt::join(m.unmatched, ", "));
}

void print_fit(const ProfileFit& fit, const std::vector<ProfiledModel>& inputs) {
  for (std::size_t k = 0; k < fit.models.size(); ++k) {
    print_match(fit.models[k], inputs[k].profile);
    std::cout << "\n";
  }
  TextTable t({"op class", "measured ms", "predicted ms", "residual", "op_scale"},
              {false, true, true, true, true});
  for (const auto& c : fit.classes)
    t.add_row({c.op_class, ms(c.measured_s), ms(c.predicted_s), fmt::format("{:+.2f}%", c.residual_pct),
               fmt::format("{:.5g}", fit.op_scale.at(c.op_class))});
  std::cout << "per op class\n" << t.str();
  std::cout << fmt::format("op_scale ({} free parameter{}); classes no row times take the common scale\n",
                           fit.free_parameters, fit.free_parameters == 1 ? "" : "s");
}

std::string pct(double x) { return fmt::format("{:.2f}%", x); }

void print_held_out(const std::vector<HeldOutModel>& held, const std::vector<ProfiledModel>& inputs) {
  TextTable t(
      {"held out", "measured ms", "predicted ms", "end-to-end", "layer median", "layer p90", "layer max"},
      {false, true, true, true, true, true, true});
  std::vector<double> end_to_end;
  for (std::size_t k = 0; k < held.size(); ++k) {
    const auto& h = held[k];
    const auto& e = h.layer_error_pct;
    t.add_row({fmt::format("{} ({})", h.model, fs::path(inputs[k].profile.file).filename().string()),
               ms(h.measured_s), ms(h.predicted_s), fmt::format("{:+.2f}%", h.end_to_end_error_pct),
               pct(percentile_nearest_rank(e, 50)), pct(percentile_nearest_rank(e, 90)),
               pct(*std::max_element(e.begin(), e.end()))});
    end_to_end.push_back(std::fabs(h.end_to_end_error_pct));
  }
  std::cout << "\nleave-one-model-out (|error| per layer, nearest-rank percentiles)\n" << t.str();
  std::cout << fmt::format("end-to-end |error| over {} models: median {}, p90 {}, max {}\n", held.size(),
                           pct(percentile_nearest_rank(end_to_end, 50)),
                           pct(percentile_nearest_rank(end_to_end, 90)),
                           pct(*std::max_element(end_to_end.begin(), end_to_end.end())));
}

std::string today_utc() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  return fmt::format("{:04}-{:02}-{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

// A profile's (or model file's) path as seen from the calibration file's folder, where --check
// looks for it, as the references of a calibration file name model files.
std::string relative_to_output(const std::string& profile, const std::string& output) {
  const fs::path folder = fs::absolute(output).parent_path();
  return fs::absolute(profile)
      .lexically_normal()
      .lexically_relative(folder.lexically_normal())
      .generic_string();
}

ProfileProvenance provenance_of(const FromProfileOptions& opts, const std::vector<ProfiledModel>& inputs,
                                const ProfileFit& fit) {
  ProfileProvenance p{opts.description, opts.date.empty() ? today_utc() : opts.date, opts.basis, {}};
  for (std::size_t k = 0; k < inputs.size(); ++k)
    p.profiles.push_back(
        {relative_to_output(opts.profiles[k], opts.output), inputs[k].profile.sha256,
         std::string(profile_format_name(inputs[k].profile.format)),
         is_model_file(inputs[k].model) ? relative_to_output(inputs[k].model, opts.output) : inputs[k].model,
         static_cast<int>(fit.models[k].rows.size())});
  return p;
}

// The file, validated by the loader's own rules (calibration_json.hpp) before it is written.
DeviceCalibration calibration_of(const FromProfileOptions& opts, const ProfileFit& fit,
                                 ProfileProvenance provenance) {
  DeviceCalibration draft;
  draft.name = fs::path(opts.output).stem().string();
  draft.memory_bytes = opts.memory_bytes;
  draft.op_scale = fit.op_scale;
  draft.power = {opts.idle_w, opts.busy_w};
  draft.fit = fit.record;
  draft.provenance = std::move(provenance);
  draft.notes =
      "Fitted from per-layer profiles measured on the device (coinfer calibrate --from-profile); "
      "see provenance.";
  Json json = calibration_to_json(draft);
  json["kind"] = opts.kind;
  json["precision"] = opts.precision;
  try {
    return calibration_from_json(json);
  } catch (const InputError& e) {
    throw e.with_file(opts.output);
  }
}

FitRecord estimate_record() { return FitRecord{kNominalHostName, "estimate"}; }

}  // namespace

void run_calibrate_from_profile(const FromProfileOptions& opts) {
  check_counts(opts);
  if (!opts.date.empty() && !is_iso_date(opts.date))
    throw InputError("", "--date", fmt::format("expected YYYY-MM-DD, e.g. 2025-03-14, got '{}'", opts.date));
  const auto inputs = load_inputs(opts);
  const auto source = host_times(opts.basis, opts.repeats);
  const ProfileFit fit = fit_profiles(inputs, source, estimate_record(), opts.held_out);
  print_fit(fit, inputs);
  if (opts.held_out) print_held_out(fit.held_out, inputs);
  const DeviceCalibration c = calibration_of(opts, fit, provenance_of(opts, inputs, fit));
  write_file_atomic(opts.output, calibration_file_text(c));
  std::cout << fmt::format("wrote {} ({}, host times: {})\n", opts.output, c.name, opts.basis);
}

std::vector<std::string> check_profile_calibration(const DeviceCalibration& c, int repeats) {
  const auto& prov = *c.provenance;
  const fs::path folder = fs::path(c.file).parent_path();
  std::vector<Profile> profiles;
  std::vector<std::string> failures;
  for (const auto& p : prov.profiles) {
    const fs::path path = folder / p.file;
    if (!fs::exists(path)) {
      std::cout << fmt::format(
          "  profile '{}' not found next to the file: not refitted (the file loads; "
          "keep the profiles beside it to check the fit)\n",
          p.file);
      return failures;
    }
    const Profile profile = read_profile(path.string(), format_by_name(p.format));
    if (profile.sha256 != p.sha256)
      failures.push_back(fmt::format("profile '{}' changed since the fit (sha256 {}, recorded {})", p.file,
                                     profile.sha256, p.sha256));
    profiles.push_back(std::move(profile));
  }
  if (!failures.empty()) return failures;
  std::vector<ProfiledModel> inputs;
  for (std::size_t k = 0; k < profiles.size(); ++k) {
    // A model file is recorded relative to the calibration file's folder.
    const auto& model = prov.profiles[k].model;
    inputs.push_back(
        profiled(is_model_file(model) ? (folder / model).string() : model, std::move(profiles[k])));
  }
  const ProfileFit fit = fit_profiles(inputs, host_times(prov.host_times, repeats), estimate_record());
  std::vector<std::string> differences;
  append_scale_differences(c.op_scale, fit.op_scale, differences);
  for (auto& what : differences)
    if (prov.host_times == "estimate")
      failures.push_back(std::move(what));
    else
      std::cout << "  note (measured host times vary between runs): " << what << "\n";
  std::cout << fmt::format("  refitted from {} recorded profile(s) on host times '{}'\n",
                           prov.profiles.size(), prov.host_times);
  return failures;
}

}  // namespace coinfer::cli
