#pragma once
/// JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters): one <testsuite> per check,
/// one <testcase> per metric or timing ratio; a regression is a <failure> whose message is the
/// table line; a `new` metric (no baseline yet) and a `noisy` timing (not judged) are <skipped>
/// with the table line as the message.
///
///     write_file_atomic("check.xml", junit_xml("coinfer-regression", checks));
#include <string>
#include <vector>

#include "sim/check/check_report.hpp"

namespace coinfer::check {

struct JunitSuite {
  std::string name;  ///< the check
  double time_s = 0.0;
  std::vector<CheckRow> rows;
};

std::string junit_xml(const std::string& suite_name, const std::vector<JunitSuite>& checks);

/// `&`, `<`, `>`, `"` and `'` as entities; control characters (not allowed in XML 1.0) as `?`.
std::string xml_escape(const std::string& text);

}  // namespace coinfer::check
