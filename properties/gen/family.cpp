#include <parity/properties/gen/family.hpp>

#include <algorithm>
#include <stdexcept>

#include <parity/core/error.hpp>
#include <parity/properties/gen/guarded_verdict.hpp>
#include <parity/properties/gen/property_rounds.hpp>

namespace parity::gen {

SubjectEntry Family::find_subject(const std::string& wanted) const {
  std::string known;
  for (const auto& s : subjects()) {
    if (s.name == wanted) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw InputError("unknown " + name() + " subject '" + wanted + "' (known: " + known + ")");
}

std::string Family::subject_with_kernel(const std::string& op, const std::string& kernel, const std::string&) const {
  require_kernel_op(op);
  throw std::logic_error(name() + " names " + op + " among its kernel ops but no subject that runs " + kernel);
}

std::vector<std::pair<std::string, Tensor>> Family::case_tensors(const Case&) const {
  throw InputError("case.family: '" + name() + "' has no exported tensors (its inputs are drawn inside its run)");
}

void Family::require_kernel_op(const std::string& op) const {
  const std::vector<std::string> ops = kernel_ops();
  if (ops.empty()) throw InputError(name() + " runs no op's kernel in parity's place, so not " + op + "'s");
  if (std::ranges::find(ops, op) != ops.end()) return;
  std::string known;
  for (const std::string& o : ops) known += (known.empty() ? "" : ", ") + o;
  throw InputError(name() + " runs kernels of " + known + ", not of " + op);
}

PropertyEntry Family::find_property(const std::string& wanted) const {
  std::string known;
  for (const auto& p : properties()) {
    if (p.name == wanted) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw InputError("unknown " + name() + " property '" + wanted + "' (known: " + known + ")");
}

Verdict case_verdict(const Family& family, const std::string& subject, const std::string& property, const Case& c,
                     CaseWorker* worker) {
  return guarded_verdict(property, c, family.rules().check_contract, [&](const Case& d) {
    return worker ? worker->check(subject, property, d) : family.check(subject, property, d);
  });
}

std::optional<ProbeDetection> detect_probe(const Family& family, const std::string& probe, const RunConfig& config,
                                           std::vector<std::string> properties) {
  if (properties.empty()) {
    for (const auto& property : family.properties())
      if (property.needs_subject) properties.push_back(property.name);
  } else {
    for (const auto& p : properties) family.find_property(p);
  }
  int cases = 0;
  std::optional<ProbeDetection> found;
  run_in_rounds(family, probe, properties, config, [&](const std::string& property, const RunResult& result) {
    // A failed run's count already holds its discards (and, shrinking on, its shrink steps).
    cases += result.counterexample ? result.cases : result.cases + result.discarded;
    if (!result.counterexample) return AfterRun::next;
    // A detection counts only if the family's own implementation passes the same case: a
    // property that fails everywhere (or a subject that throws) detects nothing here, and gets
    // its next round all the same.
    if (family.check(family.default_subject(), property, *result.counterexample).fails()) return AfterRun::again;
    found = ProbeDetection{property, result, cases};
    return AfterRun::stop;
  });
  return found;
}

}  // namespace parity::gen
