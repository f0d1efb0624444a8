#pragma once
// One failing result of a report as a card: what failed, on which case, what broke and where,
// and how to get it back.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace parity::report {

// An <article class="card"> for the failing row `row` (a check, probes or replay record, a gate
// row, or reproducer_row of a reproducer), each part only where the row has it:
// - a heading: family, property (or probe, shape), subject, and the kind of failure (the words
//   of its failure kind, e.g. "a wrong value", else its status);
// - the case in one line (case_summary) in <code class="case">, and its parameters unless the
//   detail names them ("(case params: ...)", as an op family's failure does);
// - what broke: "detail" (or "observed", a verdict's detail, every "failures" entry);
// - the element map (element_map_figure) of its "map", or its verdict's or observed verdict's;
//   a map parity cannot read is named, not drawn;
// - the reproducer, linked relative to `page_dir`, and "replay" and "rerun" each in a
//   <pre class="command">.
// Never throws on a JSON value.
std::string failure_card(const nlohmann::json& row, const std::filesystem::path& page_dir);

// The failing row of a reproducer file (parity.repro/...) named `path`: its property, subject,
// the failure kind and detail and map of its observed verdict, its case, the reproducer itself
// and "parity replay PATH".
nlohmann::json reproducer_row(const nlohmann::json& doc, const std::string& path);

}  // namespace parity::report
