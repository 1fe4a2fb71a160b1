// SSI profiles: the time ratio of a sparse inter pass by mask density, read from CSV.
#include <catch2/catch.hpp>

#include "schedulers/mobieye/ssi_profile.hpp"
#include "sim/core/error.hpp"

using namespace coinfer;
using namespace coinfer::mobieye;

TEST_CASE("ssi profile: comment lines are skipped and ratios interpolate linearly in density") {
  // Rows (0.1, 0.4) and (0.5, 0.8): at 0.3, halfway, 0.6; clamped to the end rows outside.
  const auto p = parse_ssi_profile(
      "# measured\ndensity,dense_ms,ssi_ms,time_ratio\n0.1,10,4,0.4\n# mid\n"
      "0.5,10,8,0.8\n",
      "p.csv");
  CHECK(p.ratio_by_density.size() == 2);
  CHECK(p.ratio_at(0.3) == Approx(0.6));
  CHECK(p.ratio_at(0.0) == 0.4);
  CHECK(p.ratio_at(1.0) == 0.8);
}

TEST_CASE("ssi profile: bad rows name the file and line") {
  CHECK_THROWS_WITH(parse_ssi_profile("density,time_ratio\n0.5,1\n0.2,1\n", "p.csv"),
                    "p.csv: line 3: expected densities strictly increasing, got 0.2 after 0.5");
  CHECK_THROWS_WITH(parse_ssi_profile("density,time_ratio\n1.5,1\n", "p.csv"),
                    "p.csv: line 2: column 'density': expected a value in [0, 1], got 1.5");
  CHECK_THROWS_WITH(parse_ssi_profile("density,time_ratio\n0.5,0\n", "p.csv"),
                    "p.csv: line 2: column 'time_ratio': expected a value > 0, got 0");
  CHECK_THROWS_WITH(parse_ssi_profile("density,ratio\n0.5,1\n", "p.csv"),
                    Catch::Contains("'time_ratio' column"));
  CHECK_THROWS_WITH(parse_ssi_profile("density,time_ratio\n", "p.csv"), Catch::Contains("at least one row"));
  CHECK_THROWS_WITH(read_ssi_profile("/nonexistent/ssi.csv"), "/nonexistent/ssi.csv: file not found");
}
