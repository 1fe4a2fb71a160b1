#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/builtin_registries.hpp"
#include "cli/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/scenario_paths.hpp"

namespace coinfer::cli {

void add_solve_command(CLI::App& app) {
  struct Options {
    std::string algorithm;
    std::string problem_file;
    bool list = false;
  };
  auto opts = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("solve", "Run an algorithm's pure core: problem JSON in, solution JSON out");
  cmd->add_option("algorithm", opts->algorithm, "Algorithm name (see --list)");
  cmd->add_option("problem", opts->problem_file, "Problem JSON file ('-' for stdin)");
  cmd->add_flag("--list", opts->list,
                "List the algorithms (`coinfer list solvers` also says where each problem is documented)");
  cmd->callback([opts] {
    const auto registry = builtin_solvers();
    if (opts->list || opts->algorithm.empty()) {
      for (const auto& name : registry.names()) std::cout << name << "\t" << registry.summary(name) << "\n";
      return;
    }
    auto solver = registry.create(opts->algorithm, Json::object(), "", "solve");
    if (opts->problem_file.empty()) throw InputError("", "solve", "missing problem file");
    Json problem;
    if (opts->problem_file == "-") {
      std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
      problem = parse_json_text(text, "<stdin>");
    } else {
      problem = read_json_file(opts->problem_file);
      // A problem's `file` / `*_file` keys name files relative to the problem file, as in scenarios.
      const auto dir = std::filesystem::path(opts->problem_file).parent_path();
      if (problem.is_object() && !dir.empty())
        for (auto& [key, value] : problem.items())
          if ((key == "file" || key.ends_with("_file")) && value.is_string())
            value = rebase_path(value.get<std::string>(), dir, "");
    }
    Json solution;
    try {
      solution = solver->solve(problem);
    } catch (const InputError& e) {
      throw e.with_file(opts->problem_file == "-" ? "<stdin>" : opts->problem_file);
    }
    std::cout << solution.dump(2) << "\n";
  });
}

}  // namespace coinfer::cli
