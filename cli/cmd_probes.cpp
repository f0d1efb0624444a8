#include <iomanip>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/extent_caps.hpp"
#include "core/error.hpp"
#include "core/reproducer.hpp"
#include "properties/gen/family.hpp"

namespace parity::cli {

int cmd_probes(const Argv& argv) {
  std::set<std::string> valued = {"--json", "--cases", "--repro-dir"};
  valued.merge(extent_cap_flags());
  const Args args(argv, valued, {});
  if (args.positional().size() > 1) throw InputError("probes takes at most one FAMILY");
  std::vector<const gen::Family*> selected = gen::families();
  if (!args.positional().empty()) selected = {&gen::find_family(args.positional()[0])};
  gen::RunConfig config;
  config.cases = static_cast<int>(args.number("--cases", 200, 1, kMaxCount));
  config.repro_dir = writable_repro_dir(args, "--repro-dir");
  if (const auto out = args.get("--json")) check_output_path(*out, "--json");
  std::map<const gen::Family*, gen::ExtentMaxima> caps;
  for (const gen::Family* family : selected) caps[family] = extent_caps(args, *family, selected);

  nlohmann::json report = nlohmann::json::array();
  int undetected = 0;
  std::cout << std::left << std::setw(12) << "family" << std::setw(34) << "probe" << std::setw(28) << "detected by"
            << "shrunk case\n";
  for (const gen::Family* family : selected)
    for (const auto& probe : family->subjects()) {
      if (probe.role != gen::SubjectRole::probe) continue;
      nlohmann::json row = {{"family", family->name()}, {"probe", probe.name}, {"description", probe.description}};
      std::cout << std::setw(12) << family->name() << std::setw(34) << probe.name;
      gen::RunConfig family_config = config;
      family_config.max_extents = caps[family];
      if (const auto detection = gen::detect_probe(*family, probe.name, family_config)) {
        const auto& result = detection->result;
        row["detected_by"] = detection->property;
        row["after_cases"] = result.cases;
        row["shrunk_case"] = result.counterexample->summary();
        row["detail"] = result.verdict->detail;
        if (result.reproducer) row["reproducer"] = result.reproducer->string();
        std::cout << std::setw(28) << detection->property << result.counterexample->summary() << "\n";
      } else {
        ++undetected;
        row["detected_by"] = nullptr;
        std::cout << std::setw(28) << "NOT DETECTED" << "-\n";
      }
      report.push_back(row);
    }
  if (const auto out = args.get("--json")) write_json_atomically({{"probes", report}}, *out);
  std::cout << (undetected ? std::to_string(undetected) + " probe(s) not detected: a failure of parity\n"
                           : "every probe detected\n");
  return undetected ? 1 : 0;
}

}  // namespace parity::cli
