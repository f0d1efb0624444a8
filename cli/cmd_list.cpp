#include <iostream>

#include <nlohmann/json.hpp>
#include <parity/cli/args.hpp>
#include <parity/cli/commands.hpp>

#include <parity/core/error.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/registry/families.hpp>

namespace parity::cli {

namespace {

// An op family's declaration as a subject sees it: the names its arguments and returns map to.
nlohmann::json declaration_json(const ops::OpDecl& decl) {
  nlohmann::json inputs = nlohmann::json::array(), params = nlohmann::json::array(), extents = nlohmann::json::array(),
                 outputs = nlohmann::json::array();
  for (const auto& t : decl.inputs) inputs.push_back({{"name", t.name}, {"optional", !t.present_if.empty()}});
  for (const auto& p : decl.params)
    params.push_back({{"name", p.name}, {"values", p.values}, {"orders_dims", ops::orders_dims(decl, p.name)}});
  for (const auto& e : decl.extents) extents.push_back(e.name);
  for (const auto& t : decl.outputs) outputs.push_back(t.name);
  return {{"inputs", inputs}, {"params", params}, {"extents", extents}, {"outputs", outputs}};
}

// {"schema": "parity.list/1", "families": [{"name", "description", "properties": [{"name",
// "description", "needs_subject"}], "subjects": [{"name", "role", "backend", "description",
// "unavailable"}], "op": declaration_json or null}]}
nlohmann::json list_json() {
  nlohmann::json families = nlohmann::json::array();
  for (const gen::Family* f : registry::families()) {
    nlohmann::json properties = nlohmann::json::array(), subjects = nlohmann::json::array();
    for (const auto& p : f->properties())
      properties.push_back({{"name", p.name}, {"description", p.description}, {"needs_subject", p.needs_subject}});
    for (const auto& s : f->subjects())
      subjects.push_back({{"name", s.name},
                          {"role", subjects::subject_kind_name(s.role)},
                          {"backend", s.backend},
                          {"description", s.description},
                          {"unavailable", s.unavailable}});
    const auto* op = dynamic_cast<const ops::OpFamily*>(f);
    families.push_back({{"name", f->name()},
                        {"description", f->description()},
                        {"properties", properties},
                        {"subjects", subjects},
                        {"op", op ? declaration_json(op->def().decl) : nlohmann::json()}});
  }
  return {{"schema", "parity.list/1"}, {"families", families}};
}

}  // namespace

int cmd_list(const Args& args) {
  if (args.positional().size() > 1) throw InputError("list takes at most one argument");
  if (args.has("--json")) {
    if (!args.positional().empty()) throw InputError("--json: lists everything; it takes no WHAT");
    std::cout << list_json().dump(2) << "\n";
    return 0;
  }
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
