#pragma once
// Where a report's reproducer is, as seen from the page that shows it, and how to replay it.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace parity::report {

// `recorded`, a path as parity's JSON records it (relative to the directory parity ran in, or
// absolute), relative to `page_dir`, the folder the page is written to. Both relative paths are
// taken from the current directory, which is exact for a page written by the run itself and for
// `parity report` run where the JSON was made. `recorded` unchanged when `page_dir` is empty.
std::string path_from_page(const std::string& recorded, const std::filesystem::path& page_dir);

// <a href="..."><code>...</code></a> to `recorded` as path_from_page gives it.
std::string file_link(const std::string& recorded, const std::filesystem::path& page_dir);

// HTML for a reproducer: a link to it relative to the page, the command that replays it from
// the page's folder, and `replay` (the command the report recorded, run from where parity ran)
// when it is a string that differs. "No reproducer was written." when `path` is not a string.
std::string reproducer_html(const nlohmann::json& path, const nlohmann::json& replay,
                            const std::filesystem::path& page_dir);

}  // namespace parity::report
