#pragma once
// parity report FILE... --out PAGE.html: any of parity's JSON reports as one HTML page.
#include <string>
#include <vector>

namespace parity::cli {

struct ReportOptions {
  std::vector<std::string> inputs;  // JSON files: gate, check, probes, replay, trajectory, reproducers
  std::string out;                  // the page to write
};

// Reads every input (a regular JSON file of at most 4 MiB) and writes report::render_report_page
// of them to `out`, reproducer paths relative to its folder. Throws InputError naming the file
// (missing, too large, not JSON) or the flag (no input, no --out, an unwritable --out). Returns 0.
int run_report(const ReportOptions& options);

}  // namespace parity::cli
