#include <parity/properties/gen/property_rounds.hpp>

#include <map>

namespace parity::gen {

std::vector<int> round_counts(int cases) {
  if (cases <= kFirstRoundCases) return {cases};
  return {kFirstRoundCases, cases};
}

std::vector<std::pair<std::string, RunResult>> run_in_rounds(
    const Family& family, const std::string& subject, const std::vector<std::string>& properties,
    const RunConfig& config, const std::function<AfterRun(const std::string&, const RunResult&)>& on_run) {
  const int full = config.cases > 0 ? config.cases : family.cases_per_property();
  const std::vector<int> counts = round_counts(full);
  std::map<std::string, RunResult> final;  // a property's failing or last round
  std::vector<std::string> open = properties;
  for (std::size_t round = 0; round < counts.size() && !open.empty(); ++round) {
    RunConfig c = config;
    // The last round runs as the caller asked (0: each property's own default, which for an
    // op's oracle_agreement differs from the family's); the first at its few cases.
    c.cases = round + 1 == counts.size() ? config.cases : counts[round];
    std::vector<std::string> still_open;
    for (const auto& property : open) {
      RunResult result = family.run(subject, property, c);
      const AfterRun after = on_run ? on_run(property, result) : AfterRun::next;
      const bool settled = result.counterexample || !result.not_applicable.empty();
      final[property] = std::move(result);
      if (after == AfterRun::stop) {
        still_open.clear();
        break;
      }
      if (!settled || after == AfterRun::again) still_open.push_back(property);
    }
    open = std::move(still_open);
  }
  std::vector<std::pair<std::string, RunResult>> out;
  for (const auto& property : properties)
    if (const auto it = final.find(property); it != final.end()) out.emplace_back(property, std::move(it->second));
  return out;
}

}  // namespace parity::gen
