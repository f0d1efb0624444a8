#pragma once
// A result's case in one line for a reader, from whichever form its JSON holds.
#include <string>

#include <nlohmann/json.hpp>

namespace parity::report {

// The case of `row` in one line, plain text: its "case_summary" or "shrunk_case" string (check,
// probes and replay records), its "case" when that is a string, or Case::summary() of its "case"
// object (a reproducer's: family, dims, seed, probe row, strided layouts, patches); "" when it has
// none. A case object parity cannot read gives "a case parity cannot read (...)", the refusal's words.
std::string case_summary(const nlohmann::json& row);

// The parameters of a case object (its "params") as HTML, "name=value" separated by spaces, each
// value as display() shows it (a float32 by its shortest text, the exact value in a title); ""
// when it has none.
std::string case_params_html(const nlohmann::json& case_object);

}  // namespace parity::report
