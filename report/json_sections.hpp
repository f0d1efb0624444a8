#pragma once
// Any JSON value as readable HTML, for `parity report` on files whose shape it does not know in
// detail: scalars as a definition list, arrays of objects as tables, objects as sections.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace parity::report {

// HTML for `value`, headings starting at <h`level`> (3 to 6):
// - an object: its members in key order, "findings" last (a provider's results: reported, not
//   gated, as its heading says); its scalar members and arrays of scalars as a definition list;
//   "reproducer" and "replay" as reproducer_html (a link relative to `page_dir` and the replay
//   command); each array of objects as a table (rows_table); a "case" object as its one-line
//   summary and a "map" folded, as table cells show them; each other object member as a section of
//   its own, or as one table when every member of it is a flat object (e.g. per-token checks);
//   below <h6>, JSON.
// - an array of objects: rows_table; of anything else: the values, comma-separated.
// - a scalar: display().
// Never throws on a JSON value.
std::string json_sections(const nlohmann::json& value, const std::filesystem::path& page_dir, int level = 3);

// A table of the objects in `rows` (other elements are skipped): a first column "result"
// (row_status, result_status.hpp) when some row has one; then, of the keys the rows have, first
// those that name a result (property, family, subject, probe, shape, case, verdict, outcome,
// kind, failure, detected_by, detail), then the others in the order first seen, last reproducer
// and replay. Numbers as display() shows them; null as a dash; a "reproducer" or "path" string
// links relative to `page_dir`; "replay" is shown as a command; a "case" object as its one-line
// summary (case_text.hpp) and a "map" as its output and measure, each with its JSON folded behind
// <details>; other nested values as compact JSON.
std::string rows_table(const nlohmann::json& rows, const std::filesystem::path& page_dir);

}  // namespace parity::report
