#include <parity/cli/junit_xml.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include <parity/core/markup_escape.hpp>

namespace parity::cli {
namespace {

struct Counts {
  int tests = 0, failures = 0, skipped = 0;
  void add(const ResultRecord& r) {
    ++tests;
    failures += r.failed;
    skipped += !r.failed && r.skipped;
  }
  std::string attributes() const {
    return " tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
           "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\"";
  }
};

std::string failure_body(const ResultRecord& r) {
  std::string body;
  if (r.failing_case) body += "case:       " + r.failing_case->summary() + "\n";
  if (!r.detail.empty()) body += "detail:     " + r.detail + "\n";
  if (r.reproducer)
    body += "reproducer: " + r.reproducer->string() + "\nreplay:     " + replay_command(*r.reproducer) + "\n";
  if (!r.rerun.empty()) body += "rerun:      " + r.rerun + "\n";
  return body;
}

void write_testcase(std::ostream& out, const ResultRecord& r) {
  out << "    <testcase classname=\"" << markup_escaped(r.family + "." + r.subject) << "\" name=\""
      << markup_escaped(r.property.empty() ? r.status : r.property) << "\">\n";
  if (r.failed)
    out << "      <failure type=\"" << markup_escaped(r.kind ? failure_kind_name(*r.kind) : r.status) << "\" message=\""
        << markup_escaped(r.detail) << "\">" << markup_escaped(failure_body(r)) << "</failure>\n";
  else if (r.skipped) out << "      <skipped message=\"" << markup_escaped(r.status + ": " + r.detail) << "\"/>\n";
  else if (r.reproducer) out << "      <system-out>" << markup_escaped(failure_body(r)) << "</system-out>\n";
  out << "    </testcase>\n";
}

}  // namespace

std::string junit_xml(const std::string& command, const std::vector<ResultRecord>& results) {
  std::vector<std::string> families;  // in order of first appearance
  for (const auto& r : results)
    if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
  Counts all;
  for (const auto& r : results) all.add(r);
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" << markup_escaped("parity " + command)
      << "\"" << all.attributes() << ">\n";
  for (const auto& family : families) {
    Counts suite;
    for (const auto& r : results)
      if (r.family == family) suite.add(r);
    out << "  <testsuite name=\"" << markup_escaped("parity " + command + " " + family) << "\"" << suite.attributes()
        << ">\n";
    for (const auto& r : results)
      if (r.family == family) write_testcase(out, r);
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace parity::cli
