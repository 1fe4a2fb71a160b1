#include "sim/check/junit_writer.hpp"

#include <fmt/format.h>

namespace coinfer::check {
namespace {

// Not judged: no baseline for this machine yet, or samples too spread to judge.
bool unjudged(Verdict v) { return v == Verdict::New || v == Verdict::Noisy; }

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') ? '?' : c;
    }
  }
  return out;
}

std::string junit_xml(const std::string& suite_name, const std::vector<JunitSuite>& checks) {
  std::size_t tests = 0, failures = 0, skipped = 0;
  double time_s = 0.0;
  for (const auto& c : checks) {
    tests += c.rows.size();
    time_s += c.time_s;
    for (const auto& r : c.rows) {
      failures += r.verdict == Verdict::Regression;
      skipped += unjudged(r.verdict);
    }
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3f}\">\n",
      xml_escape(suite_name), tests, failures, skipped, time_s);
  for (const auto& c : checks) {
    std::size_t f = 0, s = 0;
    for (const auto& r : c.rows) {
      f += r.verdict == Verdict::Regression;
      s += unjudged(r.verdict);
    }
    out += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
        "time=\"{:.3f}\">\n",
        xml_escape(c.name), c.rows.size(), f, s, c.time_s);
    for (const auto& r : c.rows) {
      const auto open = fmt::format("    <testcase classname=\"{}.{}\" name=\"{}\"", xml_escape(suite_name),
                                    xml_escape(c.name), xml_escape(r.metric));
      const auto line = xml_escape(row_line(r));
      if (r.verdict == Verdict::Regression)
        out += fmt::format(
            "{}>\n      <failure message=\"{}\" type=\"REGRESSION\">{}</failure>\n    </testcase>\n", open,
            line, line);
      else if (unjudged(r.verdict))
        out += fmt::format("{}>\n      <skipped message=\"{}\"/>\n    </testcase>\n", open, line);
      else
        out += fmt::format("{}>\n      <system-out>{}</system-out>\n    </testcase>\n", open, line);
    }
    out += "  </testsuite>\n";
  }
  return out + "</testsuites>\n";
}

}  // namespace coinfer::check
