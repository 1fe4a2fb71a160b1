// JUnit XML: one testsuite per check, one testcase per row, failures carry the table line.
#include <catch2/catch.hpp>

#include "sim/check/junit_writer.hpp"

using namespace coinfer::check;
using Catch::Matchers::Contains;

TEST_CASE("a regression is a failure whose message is the row, escaped") {
  const std::vector<JunitSuite> checks{
      {"table1",
       1.5,
       {{"table1", "local/latency_ms.mean", "100", "101", "+1.00%", Verdict::Regression,
         "off by 1, tolerance <1e-07>"},
        {"table1", "remote/latency_ms.mean", "50", "50", "0%", Verdict::Ok, ""}}},
      {"speed", 2.0, {{"speed", "a/b wall", "-", "1", "-", Verdict::New, "no baseline samples"}}}};
  const auto xml = junit_xml("suite & co", checks);
  CHECK_THAT(xml, Contains("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
  CHECK_THAT(xml, Contains("<testsuites name=\"suite &amp; co\" tests=\"3\" failures=\"1\" errors=\"0\" "
                           "skipped=\"1\" time=\"3.500\">"));
  CHECK_THAT(xml, Contains("<testsuite name=\"table1\" tests=\"2\" failures=\"1\""));
  CHECK_THAT(xml, Contains("<testcase classname=\"suite &amp; co.table1\" name=\"local/latency_ms.mean\">"));
  CHECK_THAT(
      xml, Contains("<failure message=\"table1  local/latency_ms.mean  baseline 100  now 101  change +1.00%  "
                    "REGRESSION  (off by 1, tolerance &lt;1e-07&gt;)\" type=\"REGRESSION\">"));
  CHECK_THAT(xml, Contains("<skipped message="));
  CHECK_THAT(xml, Contains("</testsuites>\n"));
}

TEST_CASE("a noisy timing is skipped, its message saying so") {
  const std::vector<JunitSuite> checks{
      {"speed", 1.0, {{"speed", "a/b cpu", "1", "1.2", "+20.00%", Verdict::Noisy, "spread (IQR) 50%"}}}};
  const auto xml = junit_xml("gate", checks);
  CHECK_THAT(xml, Contains("tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\""));
  CHECK_THAT(xml, Contains("<skipped message=\"speed  a/b cpu  baseline 1  now 1.2  change +20.00%  noisy  "
                           "(spread (IQR) 50%)\"/>"));
}

TEST_CASE("control characters cannot break the XML") {
  CHECK(xml_escape(std::string("a\x01") + "b'\"") == "a?b&apos;&quot;");
}
