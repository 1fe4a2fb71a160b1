#include <cstdio>
#include <iostream>

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
  coinfer::cli::add_profile_command(app);
  coinfer::cli::add_infer_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
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
