// `coinfer ssi-profile [--model flownet_dff] [--from-group 3] [--densities 0.1,...,1] [--repeats N]
// [--seed S] -o ssi.csv`: the host time of a whole forward pass with MobiEye's SSI convolutions on the
// conv layers from a conv group on, against the dense pass, per mask density (sim/profile/ssi_profile.hpp).
// Writes `density,dense_ms,ssi_ms,time_ratio` after `#` comment lines naming the command, host, kernel
// build and date, and prints the same with the SSI layers' own ratio.
#include <ctime>
#include <iostream>
#include <memory>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/gemm.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_profile.hpp"
#include "sim/profile/ssi_profile.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

struct SsiProfileCommand {
  std::string model = "flownet_dff";
  std::string output;
  SsiProfileOptions profile;
};

Graph load_named_model(const std::string& model) {
  try {
    return load_model(model);
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(model) : e;
  }
}

// Runs `f`, naming the options in the library's input errors as the command line spells them.
template <class F>
auto with_option_names(F f) {
  try {
    return f();
  } catch (const InputError& e) {
    if (e.path() == "from_group") throw InputError("", "--from-group", e.message());
    if (e.path().starts_with("densities")) throw InputError("", "--densities", e.message());
    throw;
  }
}

void write_csv(const SsiProfileCommand& c, const std::vector<SsiProfileRow>& rows) {
  const SsiProfileOptions& o = c.profile;
  try {
    write_file_atomic(c.output, [&](std::ostream& out) {
      out << fmt::format(
          "# coinfer ssi-profile --model {} --from-group {} --densities {} --repeats {} --seed {}\n", c.model,
          o.from_group, fmt::join(o.densities, ","), o.repeats, o.seed);
      out << fmt::format("# host: {}; kernels: {}; date: {:%Y-%m-%d} (UTC)\n", host_cpu_model(),
                         kernels::kernel_build_id(), fmt::gmtime(std::time(nullptr)));
      out << "# density: share of active outputs in every SSI layer; ms: median whole forward pass (thread "
             "CPU time); time_ratio = ssi_ms / dense_ms\n";
      write_ssi_profile_csv(rows, out);
    });
  } catch (const Error&) {
    throw InputError(c.output, "", "cannot write the file");
  }
}

void run_ssi_profile(const SsiProfileCommand& c) {
  const Graph g = load_named_model(c.model);
  const auto layers = with_option_names([&] { return ssi_layer_positions(g, c.profile.from_group); });
  std::cout << fmt::format(
      "model {}: SSI on {} conv layers from conv{} on; {} dense and {} SSI passes per density\n", g.name(),
      layers.size(), c.profile.from_group, c.profile.repeats, c.profile.repeats);
  keep_freed_memory_in_process();  // page faults of fresh outputs would swamp the sparse layers
  const auto rows = with_option_names([&] { return profile_ssi(g, c.profile); });
  TextTable t({"density", "dense ms", "ssi ms", "ratio", "SSI layers dense ms", "ssi ms", "ratio"},
              {true, true, true, true, true, true, true});
  for (const auto& r : rows)
    t.add_row({fmt::format("{:g}", r.density), fmt::format("{:.1f}", r.dense_ms),
               fmt::format("{:.1f}", r.ssi_ms), fmt::format("{:.3f}", r.time_ratio()),
               fmt::format("{:.1f}", r.dense_layers_ms), fmt::format("{:.1f}", r.ssi_layers_ms),
               fmt::format("{:.3f}", r.layers_ratio())});
  std::cout << t.str();
  write_csv(c, rows);
  std::cout << "wrote " << c.output << "\n";
}

}  // namespace

void add_ssi_profile_command(CLI::App& app) {
  auto c = std::make_shared<SsiProfileCommand>();
  auto* cmd = app.add_subcommand(
      "ssi-profile",
      "Time a forward pass with SSI convolutions against the dense pass per mask density (MobiEye)");
  cmd->add_option("--model", c->model, "Zoo name, model JSON file or ONNX file")->capture_default_str();
  cmd->add_option("--from-group", c->profile.from_group,
                  "First conv group run sparsely (its first layer: conv<N>)")
      ->capture_default_str()
      ->check(at_least_one());
  cmd->add_option("--densities", c->profile.densities, "Mask densities, each in (0, 1]")
      ->delimiter(',')
      ->check(number_in(0.0, 1.0));
  cmd->add_option("--repeats", c->profile.repeats,
                  "Timed passes of each kind per density (the median is kept)")
      ->capture_default_str()
      ->check(at_least_one());
  cmd->add_option("--seed", c->profile.seed, "Seed of the weights, inputs and masks")
      ->check(unsigned_integer())
      ->capture_default_str();
  cmd->add_option("-o,--output", c->output, "CSV file to write")->required();
  cmd->callback([c] { run_ssi_profile(*c); });
}

}  // namespace coinfer::cli
