#include <parity/report/html_blocks.hpp>

#include <algorithm>

namespace parity::report {

std::string html_table(const Row& header, const std::vector<Row>& rows) {
  std::string out = "<table><thead><tr>";
  for (const auto& h : header) out += "<th>" + h + "</th>";
  out += "</tr></thead><tbody>\n";
  for (const auto& row : rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < std::max(row.size(), header.size()); ++i)
      out += "<td>" + (i < row.size() ? row[i] : std::string()) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string html_settings(const std::vector<std::pair<std::string, std::string>>& items) {
  std::string out = "<dl class=\"settings\">";
  for (const auto& [term, definition] : items) out += "<dt>" + term + "</dt><dd>" + definition + "</dd>";
  return out + "</dl>\n";
}

}  // namespace parity::report
