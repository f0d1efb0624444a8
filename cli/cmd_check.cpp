#include <iomanip>
#include <iostream>

#include <unistd.h>

#include <parity/cli/args.hpp>
#include <parity/cli/case_worker_flags.hpp>
#include <parity/cli/commands.hpp>
#include <parity/cli/extent_caps.hpp>
#include <parity/cli/result_outputs.hpp>
#include <parity/cli/torch_op_flags.hpp>
#include <parity/core/error.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/property_rounds.hpp>
#include <parity/registry/families.hpp>
#include <parity/registry/torch_op_registration.hpp>

namespace parity::cli {
namespace {

// The record of one property's run (cli/result_record.hpp).
ResultRecord check_record(const std::string& family, const std::string& subject, const std::string& property,
                          const gen::RunResult& result) {
  ResultRecord r{.family = family, .property = property, .subject = subject};
  r.cases = result.cases;
  r.discarded = result.discarded;
  if (!result.not_applicable.empty()) {
    r.status = "not_applicable";
    r.skipped = true;
    r.detail = result.not_applicable;
  } else if (result.passed) {
    r.status = "holds";
  } else if (!result.counterexample) {
    r.status = "no_verdict";
    r.failed = true;
    r.detail = result.message;
  } else {
    r.status = "fails";
    r.failed = true;
    r.kind = result.verdict->kind;
    r.failing_case = result.counterexample;
    r.detail = result.verdict->detail;
    r.map = result.verdict->map;
    r.reproducer = result.reproducer;
    r.rerun = result.rerun;
    r.extra["message"] = result.message;  // the failure's text as printed
    r.extra["seed"] = result.seed;        // with case_count, what reruns the run that failed
    r.extra["case_count"] = result.case_count;
  }
  return r;
}

}  // namespace

int cmd_check(const Args& args) {
  if (args.positional().size() != 1) throw InputError("check needs exactly one FAMILY (e.g. parity check lora)");
  const gen::Family& family = registry::find_family(args.positional()[0]);
  std::string default_subject = family.default_subject();
  const auto torch_op = torch_op_flags(args);
  if (torch_op) default_subject = registry::register_torch_op(family.name(), *torch_op);
  const gen::SubjectEntry subject = family.find_subject(args.get("--subject").value_or(default_subject));
  if (!subject.unavailable.empty())
    throw InputError("--subject: " + subject.name + " cannot run here: " + subject.unavailable);
  // A real subject gets its family's subject-facing properties; the pseudo-subject
  // parity-oracles the self-checks of parity's own oracles, which call no subject (Family::run
  // refuses any other pairing).
  const bool oracles = subject.name == gen::kOraclesSubject;
  std::vector<gen::PropertyEntry> selected;
  if (const auto p = args.get("--property")) selected.push_back(family.find_property(*p));
  else
    for (const auto& p : family.properties())
      if (p.needs_subject != oracles) selected.push_back(p);
  if (selected.empty()) throw InputError("--subject: " + family.name() + " has no self-checks of parity's oracles");

  const ResultOutputs outputs(args);
  std::ostream& out = outputs.human();
  gen::RunConfig config;
  config.cases = static_cast<int>(args.number("--cases", 0, 1, kMaxCount));
  if (args.has("--seed")) config.seed = args.number("--seed", 0, 0, UINT64_MAX);
  config.max_extents = extent_caps(args, family, {&family});
  if (const auto d = args.get("--dtypes")) config.restrictions.dtypes = gen::parse_dtype_list(*d, "--dtypes");
  if (const auto p = args.get("--param")) config.restrictions.params = gen::parse_param_values(*p, "--param");
  family.check_restrictions(config.restrictions);
  config.repro_dir = writable_repro_dir(args, "--repro-dir");
  config.progress = ::isatty(2) ? &std::cerr : nullptr;  // a progress line on terminals only
  config.worker = case_worker(args, torch_op);
  if (torch_op) {  // the printed rerun and replay lines load the operator again
    config.subject_flags = ops::torch_op_flag_words(*torch_op);
    config.replay_command = "parity replay" + config.subject_flags + " --subject " + subject.name;
  }
  if (const auto t = args.get("--timeout")) {  // and a deadline given, which a hang's reproducer needs
    config.subject_flags += " --timeout " + *t;
    config.replay_command += " --timeout " + *t;
  }

  out << "parity check " << family.name() << " on " << subject.name << " (" << subject.description << ")\n";
  int failed = 0;
  std::vector<std::pair<std::string, std::string>> table;
  std::vector<ResultRecord> records;
  std::vector<std::string> names;
  for (const auto& prop : selected) names.push_back(prop.name);
  // In rounds (property_rounds.hpp): a failure is printed as soon as a round finds it.
  const auto results =
      gen::run_in_rounds(family, subject.name, names, config, [&](const std::string&, const gen::RunResult& r) {
        if (r.counterexample) out << r.message << std::flush;
        return gen::AfterRun::next;
      });
  for (const auto& [name, result] : results) {
    std::string status;
    if (!result.not_applicable.empty()) {
      status = "not applicable: " + result.not_applicable;
    } else if (result.passed) {
      status = "holds (" + std::to_string(result.cases) + " cases, " + std::to_string(result.discarded) + " discarded)";
    } else {
      ++failed;
      status = result.counterexample ? "FAILS" : "NO VERDICT";
      if (!result.counterexample) out << result.message << "\n";
    }
    table.emplace_back(name, status);
    records.push_back(check_record(family.name(), oracles ? gen::kOraclesSubject : subject.name, name, result));
  }
  outputs.write(records);
  out << "\n"
      << std::left << std::setw(30) << "property"
      << "result\n";
  for (const auto& [name, status] : table) out << std::setw(30) << name << status << "\n";
  if (oracles && failed)
    out << "\nThese self-checks call no subject: a failure above is a fault of parity's own oracles, "
        << "never a verdict on a subject.\n";
  if (subject.role == gen::SubjectRole::reference && failed)
    out << "\n"
        << subject.name << " is a reference implementation nobody here wrote: the failures above are "
        << "findings about it, with shrunk reproducers.\n";
  return failed ? 1 : 0;
}

}  // namespace parity::cli
