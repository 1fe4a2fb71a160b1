// `coinfer claims LEDGER.yaml... [--only ID] [--jobs N] [--markdown] [--summary] [--json FILE]`:
// runs every scenario and sweep the ledgers' claims name (each once, by this same binary, in a
// temporary folder), judges every claim and prints ours next to the paper's value with the verdict
// (sim/check/claims.hpp, docs/guide/claims.md). A claim that does not hold is a result, not an
// error: exit 0; exit 2 for a bad ledger or a failed run.
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <unistd.h>

#include "cli/commands.hpp"
#include "sim/check/claims.hpp"
#include "sim/check/process.hpp"
#include "sim/check/result_runner.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

using namespace coinfer::check;

struct ClaimsOptions {
  std::vector<std::string> files;
  std::vector<std::string> only;
  int jobs = 1;
  bool markdown = false;
  bool summary = false;
  std::string json;
};

struct Judged {
  const Ledger* ledger;
  const Claim* claim;
  ClaimResult result;
};

std::string number(double v) {
  if (std::isnan(v)) return "-";
  if (std::abs(v) < 1e-9) return "0";  // a rounding residue, not a value
  return std::abs(v) >= 1000 ? fmt::format("{:.0f}", v) : fmt::format("{:.3g}", v);
}

std::string verdict(const ClaimResult& r) { return r.held ? "holds" : "FAILS"; }

// Runs each file once: claims share scenarios (a report holds many rows).
class RunCache {
 public:
  RunCache(std::string exe, int jobs) : exe_(std::move(exe)), jobs_(jobs) {}
  const RunResults& get(const std::string& file, bool sweep) {
    const auto it = done_.find(file);
    if (it != done_.end()) return it->second;
    if (isatty(STDERR_FILENO)) std::fprintf(stderr, "claims: running %s\n", file.c_str());
    ResultCheck check;
    check.file = file;
    check.sweep = sweep;
    check.jobs = jobs_;
    const auto scratch = (std::filesystem::path(tmp_.path()) / std::to_string(done_.size())).string();
    std::filesystem::create_directories(scratch);
    return done_.emplace(file, run_result_check(check, exe_, scratch)).first->second;
  }

 private:
  std::string exe_;
  int jobs_;
  TempDir tmp_{"coinfer-claims"};
  std::map<std::string, RunResults> done_;
};

std::string text_table(const std::vector<Judged>& judged) {
  TextTable t({"system", "claim", "ours", "paper", "verdict", "n"}, {false, false, true, true, false, true});
  for (const auto& j : judged)
    t.add_row({j.ledger->system, j.claim->id, number(j.result.ours), paper_text(j.claim->holds),
               verdict(j.result), std::to_string(j.result.count)});
  return t.str();
}

std::string markdown_table(const std::vector<Judged>& judged) {
  std::string out = "| claim | paper says | ours | paper | holds | why not |\n|---|---|---|---|---|---|\n";
  for (const auto& j : judged)
    out += fmt::format("| `{}` | {} {} | {} | {} | {} | {} |\n", j.claim->id, j.claim->claim, j.claim->source,
                       number(j.result.ours), paper_text(j.claim->holds), j.result.held ? "yes" : "**no**",
                       j.result.held            ? ""
                       : j.claim->cause.empty() ? "not found yet"
                                                : j.claim->cause);
  return out;
}

std::string summary_table(const std::vector<Judged>& judged) {
  std::vector<std::pair<std::string, std::pair<int, int>>> by_system;
  for (const auto& j : judged) {
    auto it = std::find_if(by_system.begin(), by_system.end(),
                           [&](const auto& s) { return s.first == j.ledger->system; });
    if (it == by_system.end()) {
      by_system.push_back({j.ledger->system, {0, 0}});
      it = std::prev(by_system.end());
    }
    it->second.first += j.result.held ? 1 : 0;
    ++it->second.second;
  }
  TextTable t({"system", "claims held", "of"}, {false, true, true});
  for (const auto& [system, counts] : by_system)
    t.add_row({system, std::to_string(counts.first), std::to_string(counts.second)});
  return t.str();
}

Json results_json(const std::vector<Judged>& judged) {
  Json out = Json::array();
  for (const auto& j : judged)
    out.push_back({{"system", j.ledger->system},
                   {"id", j.claim->id},
                   {"claim", j.claim->claim},
                   {"source", j.claim->source},
                   {"cause", j.claim->cause},
                   {"ours", std::isnan(j.result.ours) ? Json() : Json(j.result.ours)},
                   {"paper", paper_text(j.claim->holds)},
                   {"held", j.result.held},
                   {"count", j.result.count}});
  return out;
}

void run_claims(const ClaimsOptions& o) {
  std::vector<Ledger> ledgers;
  for (const auto& f : o.files) ledgers.push_back(load_ledger(f));
  for (const auto& id : o.only) {
    bool known = false;
    for (const auto& l : ledgers)
      for (const auto& c : l.claims) known = known || c.id == id;
    if (!known) throw InputError("", "--only", fmt::format("no claim '{}' in the ledgers given", id));
  }
  // Every file is there before anything runs (a run takes seconds to minutes).
  for (const auto& l : ledgers)
    for (const auto& c : l.claims)
      for (const auto& f : c.files)
        if (!std::filesystem::is_regular_file(f))
          throw InputError(l.file,
                           join_path(c.path, c.sweep              ? "sweep"
                                             : c.files.size() > 1 ? "scenarios"
                                                                  : "scenario"),
                           fmt::format("file '{}' not found", f));
  RunCache cache(self_executable(), o.jobs);
  std::vector<Judged> judged;
  for (const auto& l : ledgers)
    for (const auto& c : l.claims) {
      if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), c.id) == o.only.end()) continue;
      std::vector<RunResults> runs;
      for (const auto& f : c.files) {
        try {
          runs.push_back(cache.get(f, c.sweep));
        } catch (const InputError& e) {
          throw InputError(l.file, join_path(c.path, c.sweep ? "sweep" : "scenario"), e.what());
        }
      }
      judged.push_back({&l, &c, evaluate_claim(c, runs, l.file)});
    }
  if (!o.json.empty()) write_file_atomic(o.json, results_json(judged).dump(2) + "\n");
  if (o.summary) {
    std::cout << summary_table(judged);
    return;
  }
  std::cout << (o.markdown ? markdown_table(judged) : text_table(judged));
  int held = 0;
  for (const auto& j : judged) held += j.result.held ? 1 : 0;
  if (!o.markdown) std::cout << fmt::format("{} of {} claims hold\n", held, judged.size());
}

}  // namespace

void add_claims_command(CLI::App& app) {
  auto o = std::make_shared<ClaimsOptions>();
  auto* cmd = app.add_subcommand("claims", "Judge papers' claims (a claims ledger) on our simulations");
  cmd->add_option("ledger", o->files, "Claims ledger YAML files")->required();
  cmd->add_option("--only", o->only, "Judge only this claim id (repeatable)");
  cmd->add_option("--jobs", o->jobs, "Sweep runs at once")->check(CLI::Range(1, 256))->capture_default_str();
  cmd->add_flag("--markdown", o->markdown,
                "Print the table as Markdown, with each claim's statement and source");
  cmd->add_flag("--summary", o->summary, "Print only claims held per system");
  cmd->add_option("--json", o->json, "Also write every claim's verdict as JSON to this file");
  cmd->callback([o] { run_claims(*o); });
}

}  // namespace coinfer::cli
