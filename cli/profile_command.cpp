// `coinfer profile MODEL [--groups [--max-group N]] [--backward] [--batch B] [--repeats N] [--warmup N]
// [--json] [--no-cache]`: per-layer (and grouped) host timings of a model's real kernels, cached on
// disk; `--backward` times each layer's backward kernels instead (sim/profile/backward_profiler.hpp).
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "cli/progress_line.hpp"
#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/backward_profiler.hpp"
#include "sim/profile/profiler.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

struct ProfileCliOptions {
  std::string model;
  bool groups = false;
  std::size_t max_group = 4;
  int repeats = 5;
  int warmup = 1;
  bool json = false;
  bool no_cache = false;
  bool backward = false;
  std::uint64_t seed = 1;
  std::int64_t batch = 1;
};

std::string ms(double s) { return fmt::format("{:.4f}", s * 1e3); }

void print_table(const Graph& g, const HostProfile& p) {
  std::cout << fmt::format(
      "model {} on '{}' ({} repeats per layer{})\n", g.name(), p.host_cpu,
      p.layers.empty() ? 0 : p.layers.front().repeats,
      p.batch > 1 ? fmt::format(", batch {}: times of {} inputs together", p.batch, p.batch) : "");
  TextTable t({"#", "layer", "op", "class", "median ms", "IQR ms", "MACs"},
              {true, false, false, false, true, true, true});
  const auto& order = g.topological_order();
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    const Layer& l = g.layer(order[pos]);
    t.add_row({std::to_string(pos), l.name, std::string(op_name(l.op)),
               std::string(op_class_name(op_class_of(l))), ms(p.layers[pos].median_s),
               ms(p.layers[pos].iqr_s), format_count(l.macs)});
  }
  t.add_separator();
  t.add_row({"", "sum of medians", "", "", ms(p.range_sum_s(0, p.layers.size() - 1)), "",
             format_count(g.total_macs())});
  std::cout << t.str();
  if (p.groups.empty()) return;
  TextTable gt({"group", "layers", "grouped ms", "IQR ms", "sum of layers ms", "grouped / sum"},
               {false, true, true, true, true, true});
  for (const auto& grp : p.groups) {
    const double sum = p.range_sum_s(grp.first, grp.last);
    gt.add_row({fmt::format("[{}, {}]", grp.first, grp.last), std::to_string(grp.last - grp.first + 1),
                ms(grp.stats.median_s), ms(grp.stats.iqr_s), ms(sum),
                sum > 0 ? fmt::format("{:.3f}", grp.stats.median_s / sum) : "-"});
  }
  std::cout << "\n" << gt.str();
}

void run_profile(const ProfileCliOptions& o) {
  const Graph g = load_model(o.model);
  ProfileOptions po;
  po.repeats = o.repeats;
  po.warmup = o.warmup;
  po.seed = o.seed;
  po.batch = o.batch;
  po.use_cache = !o.no_cache;
  ProgressLine line("profile: timed {} of {} passes and groups");
  po.progress = [&line](std::size_t done, std::size_t total) { line.update(done, total); };
  if (o.groups) po.groups = consecutive_groups(g.size(), o.max_group);
  if (o.backward && o.groups)
    throw InputError("", "--groups", "--backward times single layers only; leave out --groups");
  if (o.backward && o.batch != 1)
    throw InputError("", "--batch", "--backward times one sample per kernel call; leave out --batch");
  HostProfile p;
  try {
    p = o.backward ? profile_backward(g, po) : profile_model(g, po);  // forward: checks memory first
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(o.model) : e;
  }
  if (o.json)
    std::cout << host_profile_to_json(p).dump(2) << "\n";
  else
    print_table(g, p);
}

}  // namespace

void add_profile_command(CLI::App& app) {
  auto o = std::make_shared<ProfileCliOptions>();
  auto* cmd = app.add_subcommand("profile", "Time every layer of a model on this host with the real kernels");
  cmd->add_option("model", o->model, "Zoo name, model JSON file or ONNX file")->required();
  cmd->add_flag("--groups", o->groups,
                "Also time every run of 2..--max-group consecutive layers, and the whole model");
  cmd->add_option("--max-group", o->max_group, "Longest run of consecutive layers timed by --groups")
      ->check(integer_in(2, 64))
      ->capture_default_str();
  cmd->add_flag("--backward", o->backward,
                "Time each layer's backward kernels (input + weight gradient) instead; cached apart");
  cmd->add_option("--repeats", o->repeats, "Timed runs per layer / group")
      ->check(integer_in(1, 10000))
      ->capture_default_str();
  cmd->add_option("--warmup", o->warmup, "Untimed runs before timing")
      ->check(integer_in(0, 1000))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "Seed of weights and inputs")
      ->check(unsigned_integer())
      ->capture_default_str();
  cmd->add_option("--batch", o->batch,
                  "Inputs per kernel call: every time is that of a batch run together (one GEMM over "
                  "the batch for conv and fc)")
      ->check(integer_in(1, 4096))
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "Print the profile as JSON");
  cmd->add_flag("--no-cache", o->no_cache, "Measure even when a cached profile exists (and do not write it)");
  cmd->callback([o] { run_profile(*o); });
}

}  // namespace coinfer::cli
