#include <fstream>
#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/reproducer.hpp"
#include "properties/gen/lora_runs.hpp"

namespace parity::cli {

int cmd_probes(const Argv& argv) {
  const Args args(argv, {"--json", "--cases", "--repro-dir"}, {});
  if (args.positional().size() > 1) throw InputError("probes takes at most one FAMILY");
  if (!args.positional().empty()) require_family(args.positional()[0]);
  gen::RunConfig config;
  config.cases = static_cast<int>(args.positive_int("--cases", 60));
  if (const auto d = args.get("--repro-dir")) config.repro_dir = *d;

  nlohmann::json report = nlohmann::json::array();
  int undetected = 0;
  std::cout << std::left << std::setw(26) << "probe" << std::setw(24) << "detected by" << "shrunk case\n";
  for (const auto& info : subjects::lora_subjects()) {
    if (info.kind != subjects::SubjectKind::probe) continue;
    nlohmann::json row = {{"family", "lora"}, {"probe", info.name}, {"description", info.description}};
    const auto detection = gen::detect_lora_probe(info, config);
    if (detection) {
      const auto& result = detection->result;
      row["detected_by"] = detection->property;
      row["after_cases"] = result.cases;
      row["shrunk_case"] = result.counterexample->summary();
      row["detail"] = result.verdict->detail;
      if (result.reproducer) row["reproducer"] = result.reproducer->string();
      std::cout << std::setw(26) << info.name << std::setw(24) << detection->property
                << result.counterexample->summary() << "\n";
    } else {
      ++undetected;
      row["detected_by"] = nullptr;
      std::cout << std::setw(26) << info.name << std::setw(24) << "NOT DETECTED" << "-\n";
    }
    report.push_back(row);
  }
  if (const auto out = args.get("--json")) write_json_atomically({{"probes", report}}, *out);
  std::cout << (undetected ? std::to_string(undetected) + " probe(s) not detected: a failure of parity\n"
                           : "every probe detected\n");
  return undetected ? 1 : 0;
}

}  // namespace parity::cli
