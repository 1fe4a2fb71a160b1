#pragma once
/// Each subcommand family registers itself on the CLI11 app; `main` only dispatches
/// and turns a `coinfer::Error` into one stderr line and exit code 2.
#include <CLI/CLI.hpp>

namespace coinfer::cli {

void add_solve_command(CLI::App& app);
void add_model_commands(CLI::App& app);
void add_sweep_commands(CLI::App& app);
void add_run_command(CLI::App& app);
void add_partition_command(CLI::App& app);
void add_calibrate_command(CLI::App& app);
void add_calibrate_confidence_command(CLI::App& app);
void add_profile_command(CLI::App& app);
void add_infer_command(CLI::App& app);
void add_list_command(CLI::App& app);
void add_costs_command(CLI::App& app);
void add_check_command(CLI::App& app);
void add_train_command(CLI::App& app);
void add_make_trace_command(CLI::App& app);
void add_png_wire_command(CLI::App& app);
void add_step_times_command(CLI::App& app);
void add_trace_info_command(CLI::App& app);
void add_ssi_profile_command(CLI::App& app);
void add_summarize_command(CLI::App& app);
void add_claims_command(CLI::App& app);

}  // namespace coinfer::cli
