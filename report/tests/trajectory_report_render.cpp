// trajectory_report_render <report.json> <page.html>: writes render_trajectory_html of a
// trajectory report, for trajectory_report_test.sh to open in a headless browser.
#include <filesystem>
#include <fstream>
#include <iostream>

#include <parity/report/trajectory_html.hpp>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: trajectory_report_render <report.json> <page.html>\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  const auto report = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (report.is_discarded()) {
    std::cerr << "trajectory_report_render: " << argv[1] << ": not JSON\n";
    return 2;
  }
  std::ofstream(argv[2]) << parity::report::render_trajectory_html(report,
                                                                   std::filesystem::path(argv[2]).parent_path());
  return 0;
}
