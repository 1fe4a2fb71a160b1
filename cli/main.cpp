#include <string>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/run_app.hpp"

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
  coinfer::cli::add_step_times_command(app);
  coinfer::cli::add_trace_info_command(app);
  coinfer::cli::add_ssi_profile_command(app);
  coinfer::cli::add_summarize_command(app);
  coinfer::cli::add_claims_command(app);
  return coinfer::cli::run_app(app, argc, argv);
}
