#include <iostream>

#include <parity/cli/args.hpp>
#include <parity/cli/commands.hpp>
#include <parity/core/error.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/registry/families.hpp>

namespace parity::cli {

int cmd_list(const Args& args) {
  if (args.positional().size() > 1) throw InputError("list takes at most one argument");
  const std::string what = args.positional().empty() ? "all" : args.positional()[0];
  if (what != "all" && what != "families" && what != "subjects" && what != "properties" && what != "probes")
    throw InputError("list: '" + what + "' is not one of families, subjects, properties, probes");
  const bool all = what == "all";
  if (all || what == "families") {
    std::cout << "families:\n";
    for (const gen::Family* f : registry::families())
      std::cout << "  " << f->name() << "  " << f->description() << "\n";
  }
  if (all || what == "subjects" || what == "probes") {
    std::cout << (what == "probes" ? "probes:\n" : "subjects:\n");
    for (const gen::Family* f : registry::families())
      for (const auto& s : f->subjects()) {
        if (what == "probes" && s.role != gen::SubjectRole::probe) continue;
        std::cout << "  " << f->name() << "  " << s.name << "  [" << subjects::subject_kind_name(s.role) << ", "
                  << s.backend << "]  " << s.description
                  << (s.unavailable.empty() ? "" : "  (unavailable: " + s.unavailable + ")") << "\n";
      }
  }
  if (all || what == "properties") {
    std::cout << "properties:\n";
    for (const gen::Family* f : registry::families())
      for (const auto& p : f->properties())
        std::cout << "  " << f->name() << "  " << p.name << "  " << p.description
                  << (p.needs_subject
                          ? ""
                          : std::string("  [self-check of parity's oracles: --subject ") + gen::kOraclesSubject + "]")
                  << "\n";
  }
  return 0;
}

}  // namespace parity::cli
