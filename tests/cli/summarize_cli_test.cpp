// `coinfer summarize` end to end on a real sweep's results.csv.
#include <catch2/catch.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;

TEST_CASE("summarize prints a table and writes its CSV for a sweep's results") {
  const auto csv = write_text("r.csv",
                              "run,variant,seed,latency_ms.mean\n0,local,1,1\n1,local,2,2\n2,local,3,3\n"
                              "3,local,4,4\n4,remote,1,7\n");
  const auto out = (scratch_dir() / "s.csv").string();
  const auto r = run_cli("summarize " + csv.string() + " --by variant --csv " + out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("variant  metric") && Contains("ci95_low") && Contains("ci95_high"));
  CHECK_THAT(r.out, Contains("local    latency_ms.mean  4   2.5  1.29099   0.44574    4.55426"));
  CHECK_THAT(r.out, Contains("remote   latency_ms.mean  1     7        -         -          -"));
  CHECK(read_text(out) ==
        "variant,metric,n,mean,sd,ci95_low,ci95_high\n"
        "local,latency_ms.mean,4,2.5,1.2909944487358056,0.4457397432395269,4.5542602567604735\n"
        "remote,latency_ms.mean,1,7,,,\n");
}
