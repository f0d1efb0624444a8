#include <parity/cli/result_record.hpp>

namespace parity::cli {
namespace {

nlohmann::json text_or_null(const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); }

}  // namespace

std::string replay_command(const std::filesystem::path& reproducer) { return "parity replay " + reproducer.string(); }

nlohmann::json result_json(const ResultRecord& r) {
  nlohmann::json j = {{"family", r.family},
                      {"property", text_or_null(r.property)},
                      {"subject", r.subject},
                      {"status", r.status},
                      {"failed", r.failed},
                      {"skipped", r.skipped},
                      {"kind", r.kind ? nlohmann::json(failure_kind_name(*r.kind)) : nlohmann::json()},
                      {"case", r.failing_case ? case_to_json(*r.failing_case) : nlohmann::json()},
                      {"case_summary", r.failing_case ? nlohmann::json(r.failing_case->summary()) : nlohmann::json()},
                      {"detail", r.detail},
                      {"reproducer", r.reproducer ? nlohmann::json(r.reproducer->string()) : nlohmann::json()},
                      {"replay", r.reproducer ? nlohmann::json(replay_command(*r.reproducer)) : nlohmann::json()},
                      {"rerun", text_or_null(r.rerun)},
                      {"cases", r.cases},
                      {"discarded", r.discarded}};
  if (r.map) j["map"] = element_map_to_json(*r.map);
  j.update(r.extra);
  return j;
}

}  // namespace parity::cli
