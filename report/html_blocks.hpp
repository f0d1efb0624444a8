#pragma once
// Tables and definition lists for a report page, built from cells that are already HTML
// (escape plain text with escape_html first).
#include <string>
#include <utility>
#include <vector>

namespace parity::report {

using Row = std::vector<std::string>;

// <table> with one header row and the given rows; a row shorter than the header is padded
// with empty cells.
std::string html_table(const Row& header, const std::vector<Row>& rows);

// <dl class="settings"> of (term, definition) pairs.
std::string html_settings(const std::vector<std::pair<std::string, std::string>>& items);

}  // namespace parity::report
