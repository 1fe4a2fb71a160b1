#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "sim/core/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"coinfer: a simulator and testbed for collaborative DNN execution"};
  app.set_version_flag("--version", std::string("coinfer ") + COINFER_VERSION);
  app.require_subcommand(1);
  coinfer::cli::add_model_commands(app);
  coinfer::cli::add_solve_command(app);
  coinfer::cli::add_run_command(app);
  coinfer::cli::add_partition_command(app);
  coinfer::cli::add_sweep_commands(app);
  coinfer::cli::add_calibrate_command(app);
  coinfer::cli::add_calibrate_confidence_command(app);
  coinfer::cli::add_profile_command(app);
  coinfer::cli::add_infer_command(app);
  coinfer::cli::add_list_command(app);
  coinfer::cli::add_costs_command(app);
  coinfer::cli::add_check_command(app);
  coinfer::cli::add_train_command(app);
  coinfer::cli::add_make_trace_command(app);
  coinfer::cli::add_png_wire_command(app);
  std::vector<std::string> names;
  for (const auto* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end()) {
    std::fprintf(stderr, "coinfer: error: unknown command '%s'; known: %s\n", argv[1],
                 fmt::format("{}", fmt::join(names, ", ")).c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // A usage error is an input error like any other: one line, exit 2.
    std::fprintf(stderr, "coinfer: error: %s (see coinfer --help)\n", e.what());
    return 2;
  } catch (const coinfer::Error& e) {
    std::cout.flush();
    std::fprintf(stderr, "coinfer: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::fprintf(stderr, "coinfer: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}
