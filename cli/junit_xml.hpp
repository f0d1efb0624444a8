#pragma once
// Results as JUnit XML, the report format CI systems render (GitLab's and GitHub's test
// summaries, Jenkins):
//   <testsuites name="parity COMMAND" tests= failures= skipped=>
//     <testsuite name="parity COMMAND FAMILY" tests= failures= skipped=>   one per family
//       <testcase classname="FAMILY.SUBJECT" name="PROPERTY">             one per result
//         <failure type="KIND" message="DETAIL">case, detail, reproducer, replay, rerun</failure>
//         or <skipped message="DETAIL"/> (not applicable, discarded)
// A testcase without a property (a probe no property detected) is named after its status.
// Text is escaped by core/markup_escape.hpp (XML 1.0: entities, and a control character XML
// cannot hold as the text \xNN).
#include <string>
#include <vector>

#include <parity/cli/result_record.hpp>

namespace parity::cli {

std::string junit_xml(const std::string& command, const std::vector<ResultRecord>& results);

}  // namespace parity::cli
