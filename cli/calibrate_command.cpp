// `coinfer calibrate FILE... [--write] [--check] [--basis recorded|profile|estimate]`: re-fits
// device calibration files from their reference figures and prints every residual. By default
// each file is refitted on the host basis its `fit` record names (the shipped files: the
// deterministic estimate; a file without the record: the estimate too), so `--check` compares
// the refit with the file as shipped. `--write` writes only files every scenario accepts (fitted
// on the estimate basis), or nothing. `--from-profile FILE --model M ... -o OUT` fits a new file
// from per-layer profiles instead (calibrate_profile_command.hpp).
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "cli/calibrate_held_out.hpp"
#include "cli/calibrate_profile_command.hpp"
#include "cli/calibration_labels.hpp"
#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "cli/host_profile_source.hpp"
#include "sim/calibration/calibrate.hpp"
#include "sim/calibration/calibration_json.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

struct CalibrateOptions {
  std::vector<std::string> files;
  bool write = false;
  bool check = false;
  std::string basis = "recorded";
  int repeats = 5;
  double tolerance_pct = 5.0;
  FromProfileOptions from_profile;
};

void print_fit(const DeviceCalibration& c, const CalibrationFit& fit) {
  std::cout << fmt::format("{} ({}): {}, host basis {} on '{}'\n", c.name, c.file, device_kind_name(c.kind),
                           fit.record.host_basis, fit.record.host_cpu);
  TextTable t({"figure", "fit", "reference", "host", "stored scale", "refit", "residual", "source"},
              {false, false, true, true, true, true, true, false});
  for (const auto& r : fit.figures) {
    const auto& f = r.figure;
    if (!r.available) {
      t.add_row({figure_label(f), f.fitted ? "yes" : "check", fmt::format("{} {}", f.value, f.unit), "-", "-",
                 "-", "skipped", f.source});
      continue;
    }
    t.add_row({figure_label(f), f.fitted ? "yes" : "check", fmt::format("{} {}", f.value, f.unit),
               in_unit(r.host_s, "s"),
               fmt::format("{} ({:+.1f}%)", in_unit(r.stored_s, f.unit), r.stored_residual_pct),
               fit.fitted ? in_unit(r.refit_s, f.unit) : "-",
               fit.fitted ? fmt::format("{:+.2f}%", r.refit_residual_pct) : "-", f.source});
  }
  std::cout << t.str();
  for (const auto& r : fit.figures)
    if (!r.available) std::cout << fmt::format("  skipped {}: {}\n", figure_label(r.figure), r.skip_reason);
  if (fit.fitted) {
    std::string scales;
    for (const auto& [name, s] : fit.op_scale) scales += fmt::format(" {}={:.5g}", name, s);
    std::cout << fmt::format("  refit op_scale ({} free parameter{}):{}\n", fit.free_parameters,
                             fit.free_parameters == 1 ? "" : "s", scales);
  }
}

// --write writes a file only when every scenario will accept it: scenarios put host times on the
// estimate basis, so op_scale fitted on measured times (--basis profile) would be refused there.
void check_writable(const DeviceCalibration& c, const std::string& basis) {
  if (basis == "profile")
    throw InputError(
        c.file, "fit",
        fmt::format("not written: op_scale fitted on this host's measured times (--basis profile) "
                    "is accepted by no scenario, which all use the estimate basis; write with "
                    "--basis estimate, which records {}",
                    kEstimateFitExample));
  if (c.provenance)
    throw InputError(c.file, "provenance",
                     "not written: this file is fitted from per-layer profiles; refit it with "
                     "`coinfer calibrate --from-profile ...` as its provenance records");
}

void check_fitted(const DeviceCalibration& c, const CalibrationFit& fit) {
  if (!fit.fitted)
    throw InputError(
        c.file, "references",
        R"(not written: no fitted reference figure could be evaluated; add one, e.g. "references": )"
        R"([{"model": "resnet18", "quantity": "latency", "value": 120, "unit": "ms", )"
        R"("source": "measured on the device", "fitted": true}])");
}

// The layout platforms/calibration/README.md asks of a file that --check verifies or --write
// rewrites: `name` is the file stem, and (--check) a `fit` record names the basis whose refit
// op_scale must equal the stored one.
void check_layout(const CalibrateOptions& opts, const DeviceCalibration& c) {
  const auto stem = std::filesystem::path(c.file).stem().string();
  if ((opts.check || opts.write) && c.name != stem)
    throw InputError(
        c.file, "name",
        fmt::format("expected '{}', the file's stem (one file per device, <name>.json), got '{}'", stem,
                    c.name));
  if (opts.check && opts.basis == "recorded" && !c.fit)
    throw InputError(
        c.file, "fit",
        fmt::format("missing key; --check compares the refit op_scale with the stored one on the "
                    "basis `fit` records: add {} (`coinfer calibrate FILE --write` adds it), or "
                    "give --basis",
                    kEstimateFitExample));
}

// A profile-fitted file: --check refits it from the profiles its provenance records.
bool check_profile_file(const CalibrateOptions& opts, const DeviceCalibration& c) {
  std::cout << fmt::format("{} ({}): {}, fitted from {} profile(s), {}\n", c.name, c.file,
                           device_kind_name(c.kind), c.provenance->profiles.size(), c.provenance->date);
  const auto failures = check_profile_calibration(c, opts.repeats);
  for (const auto& f : failures) std::cout << "  FAIL " << f << "\n";
  if (failures.empty()) std::cout << "  ok\n";
  std::cout << "\n";
  return failures.empty();
}

void run_calibrate(const CalibrateOptions& opts) {
  if (!opts.from_profile.profiles.empty() || !opts.from_profile.models.empty()) {
    if (!opts.files.empty() || opts.check || opts.write)
      throw InputError("", "--from-profile",
                       "expected no calibration FILE, --check or --write with it (it writes -o)");
    FromProfileOptions fp = opts.from_profile;
    fp.basis = opts.basis == "recorded" ? "estimate" : opts.basis;
    fp.repeats = opts.repeats;
    run_calibrate_from_profile(fp);
    return;
  }
  if (opts.files.empty())
    throw InputError("", "calibrate",
                     "expected at least one calibration file, or --from-profile FILE --model M");
  if (opts.from_profile.held_out && (opts.check || opts.write))
    throw InputError("", "--held-out",
                     "expected no --check or --write with calibration FILEs (it only reports)");
  if (opts.from_profile.held_out) return print_held_out_figures(opts.files, opts.basis, opts.repeats);
  std::map<std::string, HostProfileSource> sources;
  std::size_t failed_files = 0, verified = 0;
  for (const auto& file : opts.files) {
    const DeviceCalibration c = load_calibration_file(file);
    check_layout(opts, c);
    if (c.provenance && opts.check) {
      failed_files += check_profile_file(opts, c) ? 0 : 1;
      continue;
    }
    const std::string basis = host_basis_for(opts.basis, c);
    if (opts.write) check_writable(c, basis);
    if (!sources.contains(basis)) sources[basis] = make_host_profile_source(basis, opts.repeats);
    const CalibrationFit fit = refit_calibration(c, sources.at(basis));
    print_fit(c, fit);
    if (opts.check) {
      const auto failures = check_calibration(c, fit, opts.tolerance_pct);
      for (const auto& f : failures) std::cout << "  FAIL " << f << "\n";
      if (failures.empty()) {
        for (const auto& r : fit.figures) verified += r.figure.fitted ? 1 : 0;
        const bool as_shipped = c.fit && *c.fit == fit.record;
        std::cout << fmt::format("  ok: every fitted figure within {}%{}\n", opts.tolerance_pct,
                                 as_shipped ? "; refit op_scale equals the file's" : "");
      }
      failed_files += failures.empty() ? 0 : 1;
    }
    if (opts.write) {
      check_fitted(c, fit);
      write_file_atomic(c.file, calibration_file_text(apply_fit(c, fit)));
      std::cout << "  wrote " << file << "\n";
    }
    std::cout << "\n";
  }
  if (opts.check) {
    std::cout << fmt::format("check: {} file(s), {} fitted figure(s) verified, {} file(s) failed\n",
                             opts.files.size(), verified, failed_files);
    if (failed_files > 0) throw Error(fmt::format("calibration check failed for {} file(s)", failed_files));
  }
}

void add_from_profile_options(CLI::App& cmd, FromProfileOptions& o) {
  const char* group = "Fit a new file from per-layer profiles";
  cmd.add_option("--from-profile", o.profiles, "Per-layer profile measured on the device (repeat per model)")
      ->group(group);
  cmd.add_option("--model", o.models, "Model of the k-th --from-profile: zoo name or model JSON")
      ->group(group);
  cmd.add_option("--format", o.formats,
                 "Profile format: csv, torch-trace, tflite-csv (default: .csv -> csv, "
                 ".json -> torch-trace)")
      ->group(group);
  cmd.add_option("-o,--output", o.output, "Calibration file to write")->group(group);
  cmd.add_option("--name", o.name, "Device name (default and only allowed value: the stem of -o)")
      ->group(group);
  cmd.add_option("--description", o.description, "What the device is and how it was measured")->group(group);
  cmd.add_option("--idle-w", o.idle_w, "Idle power, W")->check(number_in(0.0, 2000.0))->group(group);
  cmd.add_option("--busy-w", o.busy_w, "Busy power, W")->check(number_in(0.0, 2000.0))->group(group);
  cmd.add_option("--kind", o.kind, "Device kind")
      ->check(one_of({"phone_cpu", "phone_gpu", "npu", "edge_board", "gpu_server", "cpu_server", "desktop"}))
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--precision", o.precision, "Precision the profiles ran at")
      ->check(one_of({"fp32", "fp16", "int8"}))
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--memory-bytes", o.memory_bytes, "Device memory, bytes")
      ->check(number_in(1048576.0, 1e15))
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--date", o.date, "Date recorded in the file, YYYY-MM-DD (default: today, UTC)")
      ->group(group);
  cmd.add_flag("--held-out", o.held_out,
               "Also predict each model from a fit on the others (with calibration FILEs: predict each "
               "fitted figure from a fit on the others)")
      ->group(group);
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto opts = std::make_shared<CalibrateOptions>();
  auto* cmd = app.add_subcommand("calibrate", "Re-fit device calibration files from their reference figures");
  cmd->add_option("files", opts->files, "Calibration JSON files (platforms/calibration/*.json)");
  cmd->add_flag("--write", opts->write, "Write the refitted op_scale back into each file");
  cmd->add_flag("--check", opts->check, "Fail unless every fitted figure is reproduced within the tolerance");
  cmd->add_option("--basis", opts->basis,
                  "Host timing basis: recorded (each file's fit record), profile (real kernels) or "
                  "estimate (MACs-based)")
      ->check(one_of({"recorded", "profile", "estimate"}))
      ->capture_default_str();
  cmd->add_option("--repeats", opts->repeats, "Timed repeats per layer when profiling")
      ->check(integer_in(1, 1000))
      ->capture_default_str();
  cmd->add_option("--tolerance", opts->tolerance_pct, "Allowed |residual| in percent for --check")
      ->check(number_in(0.0, 100.0))
      ->capture_default_str();
  add_from_profile_options(*cmd, opts->from_profile);
  cmd->callback([opts] { run_calibrate(*opts); });
}

}  // namespace coinfer::cli
