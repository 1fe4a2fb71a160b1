#include "cli/run_app.hpp"

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::cli {

int run_app(CLI::App& app, int argc, char** argv) {
  // An unknown command (or an unknown word after a command that has its own, `model`, `make-trace`)
  // names the known ones; CLI11 would only say a subcommand is required.
  // A missing one says which are known, unless help or the version is asked for.
  bool help = false;
  for (int i = 1; i < argc; ++i)
    help = help || std::string_view(argv[i]) == "--help" || std::string_view(argv[i]) == "-h" ||
           std::string_view(argv[i]) == "--version";
  const CLI::App* level = &app;
  std::string where = "command";
  for (int i = 1;; ++i) {
    const auto subs = level->get_subcommands({});
    if (subs.empty()) break;
    std::vector<std::string> names;
    const CLI::App* next = nullptr;
    for (const auto* sub : subs) {
      names.push_back(sub->get_name());
      if (i < argc && sub->get_name() == argv[i]) next = sub;
    }
    const auto known = fmt::format("{}", fmt::join(names, ", "));
    if (i >= argc || argv[i][0] == '-') {
      if (help) break;
      std::fprintf(stderr, "coinfer: error: expected a %s (%s)\n", where.c_str(), known.c_str());
      return 2;
    }
    if (!next) {
      std::fprintf(stderr, "coinfer: error: unknown %s '%s'; known: %s\n", where.c_str(), argv[i],
                   known.c_str());
      return 2;
    }
    where = next->get_name() + " command";
    level = next;
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

}  // namespace coinfer::cli
