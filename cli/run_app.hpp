#pragma once
/// Parses and runs a command line against `app` as both coinfer programs do (cli/main.cpp,
/// cli/video/main.cpp): an unknown or missing subcommand names the known ones; a usage or input
/// error is one `coinfer: error: ...` line on stderr and exit 2, an unexpected exception `coinfer:
/// internal error: ...` and exit 3; --help and --version print and exit 0.
#include <CLI/CLI.hpp>

namespace coinfer::cli {

int run_app(CLI::App& app, int argc, char** argv);

}  // namespace coinfer::cli
