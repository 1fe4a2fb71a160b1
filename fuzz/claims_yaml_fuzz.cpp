/// Claims ledgers (sim/check/claims: `coinfer claims LEDGER`). The input is read as
/// scenarios/cbo/fuzz-claims.yaml, so `sweep: cbo-fig11-bandwidth.yaml` names a shipped sweep.
/// Every accepted ledger has claims with plain, unique ids and a paper side; each claim is then
/// judged on a fixed table instead of running its scenarios (a sweep's rows, or a scenario's report
/// rows), where it may be refused as naming a column or row the table lacks. A verdict that holds
/// has a number, and the count is never negative.
#include <cmath>
#include <set>
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "sim/check/claims.hpp"
#include "sim/check/plain_name.hpp"
#include "sim/check/result_runner.hpp"
#include "sim/scenario/yaml_json.hpp"

namespace {

using coinfer::Json;
using coinfer::check::RunResults;

// Two variants at three rates, with a whole to take shares of and a text column.
RunResults sweep_rows() {
  RunResults r;
  r.flat = true;
  const double rates[] = {1, 5, 25};
  int i = 0;
  for (const double rate : rates)
    for (const char* variant : {"cbo", "local"}) {
      const double acc = variant[0] == 'c' ? 0.5 + rate / 100 : 0.6;
      r.runs.push_back({std::to_string(i++), Json{{"variant", variant},
                                                  {"rate", rate},
                                                  {"scheduler_metrics.accuracy", acc},
                                                  {"latency_ms.mean", 100 / rate},
                                                  {"bytes", rate * 1000},
                                                  {"total", 0.0},
                                                  {"note", nullptr}}});
    }
  return r;
}

// A scenario's report rows, one without a number.
RunResults report_rows() {
  RunResults r;
  r.runs.push_back({coinfer::check::kReportRun,
                    Json{{"rows", Json::array({Json{{"name", "speedup a over b"}, {"ours", 3.2}},
                                               Json{{"name", "speedup c over b"}, {"ours", 0.5}},
                                               Json{{"name", "gap"}, {"ours", nullptr}}})}}});
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  static const std::string file = fuzz::source_dir() + "/scenarios/cbo/fuzz-claims.yaml";
  static const RunResults sweep = sweep_rows(), report = report_rows();
  fuzz::accept_or_reject([&] {
    const check::Ledger ledger = check::parse_ledger(yaml_to_json(fuzz::as_text(data, size), file), file);
    fuzz::check(!ledger.claims.empty(), "an accepted ledger has a claim");
    std::set<std::string> ids;
    for (const auto& c : ledger.claims) {
      fuzz::check(is_plain_name(c.id), "claim ids are plain names");
      fuzz::check(ids.insert(c.id).second, "claim ids are unique");
      fuzz::check(!c.files.empty(), "a claim names what produces ours");
      fuzz::check(!check::paper_text(c.holds).empty(), "a claim has a paper side");
      fuzz::accept_or_reject([&] {
        const std::vector<RunResults> runs(c.files.size(), c.sweep ? sweep : report);
        const check::ClaimResult r = check::evaluate_claim(c, runs, file);
        fuzz::check(r.count >= 0, "a count is never negative");
        fuzz::check(!r.held || !std::isnan(r.ours), "a claim that holds has a number");
      });
    }
  });
  return 0;
}
