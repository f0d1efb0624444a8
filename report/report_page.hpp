#pragma once
// The page of `parity report`: any of parity's JSON reports (gate, check, probes, replay,
// trajectory, reproducers) rendered as one self-contained HTML page.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parity::report {

struct ReportInput {
  std::string name;    // shown as the section's title, e.g. the file's path
  nlohmann::json doc;  // the parsed file
};

// One sentence (HTML) that concludes `doc`, read from its fields:
// - a trajectory ("schema" parity.trajectory/...): whether every step is bitwise equal;
// - a reproducer ("schema" parity.repro/...): what failed on which subject;
// - "all_hold" (the gate): whether every check of parity's kernels holds;
// - otherwise the rows tally_rows finds: how many of them fail (probes: are not detected), or
//   that all hold, or that the file holds no verdict parity recognises.
std::string conclusion_sentence(const nlohmann::json& doc);

// The page, titled "parity report": first the conclusions, one per input, each followed by a
// card per failing row (failure_card: what failed, the case in one line, what broke, the element
// map, the reproducer linked relative to `page_dir`, the replay and rerun commands; at most 20
// cards an input); then one section per input: trajectory_body for a trajectory, json_sections
// for anything else. Unknown fields are shown as they are; it never throws on a JSON value.
std::string render_report_page(const std::vector<ReportInput>& inputs, const std::filesystem::path& page_dir);

}  // namespace parity::report
