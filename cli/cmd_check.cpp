#include <iomanip>
#include <iostream>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "properties/gen/lora_runs.hpp"

namespace parity::cli {

int cmd_check(const Argv& argv) {
  const Args args(argv, {"--subject", "--property", "--cases", "--seed", "--repro-dir"}, {});
  if (args.positional().size() != 1) throw InputError("check needs exactly one FAMILY (e.g. parity check lora)");
  require_family(args.positional()[0]);
  const auto& info = subjects::find_lora_subject(args.get("--subject").value_or("rlkernels-host"));
  if (const std::string why = info.unavailable_reason(); !why.empty())
    throw InputError("--subject: " + info.name + " cannot run here: " + why);
  std::vector<properties::lora::LoraProperty> selected;
  if (const auto p = args.get("--property")) selected.push_back(properties::lora::find_lora_property(*p));
  else selected = properties::lora::lora_properties();

  gen::RunConfig config;
  config.cases = static_cast<int>(args.positive_int("--cases", 0));
  config.seed = args.uint64("--seed", 0);
  if (const auto d = args.get("--repro-dir")) config.repro_dir = *d;
  config.progress = &std::cerr;

  std::cout << "parity check lora on " << info.name << " (" << info.description << ")\n";
  int failed = 0;
  std::vector<std::pair<std::string, std::string>> table;
  for (const auto& prop : selected) {
    const auto result = gen::run_lora_property(info, prop, config);
    std::string status;
    if (result.passed) {
      status = "holds (" + std::to_string(result.cases) + " cases, " + std::to_string(result.discarded) + " discarded)";
    } else if (result.counterexample) {
      ++failed;
      status = "FAILS";
      std::cout << result.message;
    } else {
      ++failed;
      status = "NO VERDICT";
      std::cout << result.message << "\n";
    }
    table.emplace_back(prop.name, status);
  }
  std::cout << "\n" << std::left << std::setw(26) << "property" << "result\n";
  for (const auto& [name, status] : table) std::cout << std::setw(26) << name << status << "\n";
  if (info.kind == subjects::SubjectKind::reference && failed)
    std::cout << "\n" << info.name << " is a reference implementation nobody here wrote: the failures above are "
              << "findings about it, with shrunk reproducers.\n";
  return failed ? 1 : 0;
}

}  // namespace parity::cli
