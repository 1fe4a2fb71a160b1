#pragma once
/// What `coinfer check` reports: one row per compared metric or timing ratio, printed as a table
/// (check, metric, baseline, now, change, verdict, detail) and written to JUnit XML.
///
///     std::cout << rows_table(rows);   // the table, a rule between checks
#include <string>
#include <vector>

namespace coinfer::check {

enum class Verdict {
  Ok,          ///< within tolerance, or no practically and statistically significant change
  Regression,  ///< a result moved beyond its tolerance (or vanished), or a timing got worse
  Improved,    ///< a timing got better, significantly and by more than the threshold
  New,         ///< no baseline value yet (for this machine, in a timing check); one is recorded
  Noisy,       ///< a timing whose samples spread wider than its threshold: not judged, fails nothing
};

/// `ok`, `REGRESSION`, `improved`, `new`, `noisy`.
std::string verdict_name(Verdict verdict);

struct CheckRow {
  std::string check;
  std::string metric;
  std::string baseline;  ///< the baseline value (or bound), formatted
  std::string now;
  std::string change;  ///< `+1.00%`, or `-` when not a number
  Verdict verdict = Verdict::Ok;
  std::string detail;  ///< why: the tolerance exceeded, the test's p-value, ...
};

/// The rows as a text table, a rule between checks.
std::string rows_table(const std::vector<CheckRow>& rows);
/// One row on one line (cells separated by two spaces), as a JUnit failure message.
std::string row_line(const CheckRow& row);

/// `+1.00%` for (now - base) / |base|; `0%` when equal; `-` when base is 0 and now is not.
std::string change_percent(double base, double now);

}  // namespace coinfer::check
