#include <iostream>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "properties/lora/lora_properties.hpp"
#include "subjects/lora_family.hpp"

namespace parity::cli {

void require_family(const std::string& family) {
  if (family != "lora")
    throw InputError("unknown family '" + family + "' (this parity has: lora)");
}

int cmd_list(const Argv& argv) {
  const Args args(argv, {}, {});
  if (args.positional().size() > 1) throw InputError("list takes at most one argument");
  const std::string what = args.positional().empty() ? "all" : args.positional()[0];
  if (what != "all" && what != "families" && what != "subjects" && what != "properties" && what != "probes")
    throw InputError("list: '" + what + "' is not one of families, subjects, properties, probes");
  const bool all = what == "all";
  if (all || what == "families") std::cout << "families:\n  lora  LoRA linear, forward and backward\n";
  if (all || what == "subjects" || what == "probes") {
    std::cout << (what == "probes" ? "probes:\n" : "subjects:\n");
    for (const auto& s : subjects::lora_subjects()) {
      const bool probe = s.kind == subjects::SubjectKind::probe;
      if (what == "probes" && !probe) continue;
      const std::string why = s.unavailable_reason();
      std::cout << "  lora  " << s.name << "  [" << subjects::subject_kind_name(s.kind) << ", " << s.backend
                << "]  " << s.description << (why.empty() ? "" : "  (unavailable: " + why + ")") << "\n";
    }
  }
  if (all || what == "properties") {
    std::cout << "properties:\n";
    for (const auto& p : properties::lora::lora_properties())
      std::cout << "  lora  " << p.name << "  " << p.description << "\n";
  }
  return 0;
}

}  // namespace parity::cli
