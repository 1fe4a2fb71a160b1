// `coinfer calibrate FILE... [--write] [--check] [--basis recorded|profile|estimate]`: re-fits
// device calibration files from their reference figures and prints every residual. By default
// each file is refitted on the host basis its `fit` record names (the shipped files: the
// deterministic estimate), so `--check` compares the refit with the file as shipped.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "cli/calibrate_held_out.hpp"
#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "cli/host_profile_source.hpp"
#include "sim/calibration/calibrate.hpp"
#include "sim/calibration/calibration_json.hpp"
#include "sim/core/error.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

struct Options {
  std::vector<std::string> files;
  bool write = false;
  bool check = false;
  bool held_out = false;
  std::string basis = "recorded";
  int repeats = 5;
  double tolerance_pct = 5.0;
};

std::string in_unit(double seconds, const std::string& unit) {
  return fmt::format("{:.5g} {}", seconds / time_unit_seconds(unit, "unit"), unit);
}

std::string figure_label(const ReferenceFigure& f) {
  std::string label = fmt::format("{} {}", f.model, f.quantity);
  if (f.batch != 1) label += fmt::format(" x{}", f.batch);
  if (!f.input_shape.empty()) label += " @" + shape_to_string(f.input_shape);
  return label;
}

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

void write_file(const DeviceCalibration& c) {
  const std::string tmp = c.file + ".tmp";
  {
    std::ofstream out(tmp);
    out << calibration_file_text(c);
    if (!out) throw Error(fmt::format("cannot write '{}'", tmp));
  }
  if (std::rename(tmp.c_str(), c.file.c_str()) != 0) throw Error(fmt::format("cannot replace '{}'", c.file));
}

// The basis a file is refitted on: the one asked for, or with "recorded" the one of the file's
// fit record ("profile" when the file has none).
std::string basis_for(const Options& opts, const DeviceCalibration& c) {
  if (opts.basis != "recorded") return opts.basis;
  return c.fit ? c.fit->host_basis : "profile";
}

// The layout platforms/calibration/README.md asks of a file that --check verifies or --write
// rewrites: `name` is the file stem, and (--check) a `fit` record names the basis whose refit
// op_scale must equal the stored one.
void check_layout(const Options& opts, const DeviceCalibration& c) {
  const auto stem = std::filesystem::path(c.file).stem().string();
  if ((opts.check || opts.write) && c.name != stem)
    throw InputError(
        c.file, "name",
        fmt::format("expected '{}', the file's stem (one file per device, <name>.json), got '{}'", stem,
                    c.name));
  if (opts.check && opts.basis == "recorded" && !c.fit)
    throw InputError(c.file, "fit",
                     "missing key; --check compares the refit op_scale with the stored one on the basis "
                     "`fit` records (calibrate --write adds it; or give --basis)");
}

void run(const Options& opts) {
  if (opts.files.empty()) throw InputError("", "calibrate", "expected at least one calibration file");
  if (opts.held_out) return print_held_out_figures(opts.files, opts.basis, opts.repeats);
  std::map<std::string, HostProfileSource> sources;
  std::size_t failed_files = 0, verified = 0;
  for (const auto& file : opts.files) {
    const DeviceCalibration c = load_calibration_file(file);
    check_layout(opts, c);
    const std::string basis = basis_for(opts, c);
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
    if (opts.write && fit.fitted) {
      write_file(apply_fit(c, fit));
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

}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto opts = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("calibrate", "Re-fit device calibration files from their reference figures");
  cmd->add_option("files", opts->files, "Calibration JSON files (platforms/calibration/*.json)")->required();
  cmd->add_flag("--write", opts->write, "Write the refitted op_scale back into each file");
  cmd->add_flag("--held-out", opts->held_out, "Leave each fitted figure out in turn and predict it");
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
  cmd->callback([opts] { run(*opts); });
}

}  // namespace coinfer::cli
