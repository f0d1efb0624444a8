// parity report: renders parity's JSON reports as one HTML page (report/report_page.hpp).
#include <parity/cli/cmd_report.hpp>

#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include <parity/cli/args.hpp>
#include <parity/cli/commands.hpp>
#include <parity/core/error.hpp>
#include <parity/core/input_file.hpp>
#include <parity/core/output_file.hpp>
#include <parity/report/report_page.hpp>

namespace parity::cli {

int run_report(const ReportOptions& options) {
  if (options.inputs.empty()) throw InputError("report needs at least one FILE (a JSON report of parity)");
  if (options.out.empty()) throw InputError("--out: required (the HTML page to write)");
  check_output_path(options.out, "--out");
  std::vector<report::ReportInput> inputs;
  for (const auto& file : options.inputs) {
    const nlohmann::json doc = nlohmann::json::parse(read_input_file(file), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) throw InputError(file + ": not valid JSON");
    inputs.push_back({file, doc});
  }
  write_text_atomically(report::render_report_page(inputs, std::filesystem::path(options.out).parent_path()),
                        options.out);
  std::cout << "report: " << options.out << " (" << inputs.size() << " file(s))\n";
  return 0;
}

int cmd_report(const Args& args) { return run_report({args.positional(), args.get("--out").value_or("")}); }

}  // namespace parity::cli
