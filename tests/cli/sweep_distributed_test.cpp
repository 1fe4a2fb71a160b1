// Sweeps spread over GNU parallel job slots (scripts/parallel-sweep.sh): the merged results equal a
// single-machine run byte for byte. (The SLURM recipe is checked by scripts/slurm-selftest.sh in CI:
// it needs root to start a throwaway single-node cluster.)
#include <cstdlib>

#include <catch2/catch.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;

namespace {
const std::filesystem::path kRoot = COINFER_SOURCE_DIR;
}

TEST_CASE("a sweep spread over GNU parallel slots merges into the single-machine results") {
  const auto dir = scratch_dir() / "parallel";
  std::filesystem::remove_all(dir);
  const auto sweep = (kRoot / "scenarios/ci/determinism-sweep.yaml").string();
  const auto cmd = (kRoot / "scripts/parallel-sweep.sh").string() + " " + sweep + " " +
                   (dir / "spread").string() + " 4 " + COINFER_CLI + " -- --jobs 2 >" +
                   (dir.string() + ".log") + " 2>&1";
  std::filesystem::create_directories(dir);
  REQUIRE(std::system(cmd.c_str()) == 0);
  REQUIRE(run_cli("sweep " + sweep + " --jobs 1 --out " + (dir / "single").string()).exit_code == 0);
  const auto spread = read_text(dir / "spread/results.csv");
  CHECK(std::count(spread.begin(), spread.end(), '\n') == 21);  // header + 20 runs
  CHECK(spread == read_text(dir / "single/results.csv"));
}
