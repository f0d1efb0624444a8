#include <parity/registry/replay.hpp>

#include <algorithm>
#include <filesystem>
#include <ostream>

#include <parity/core/error.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/registry/families.hpp>

namespace parity::registry {
namespace {

namespace fs = std::filesystem;

constexpr int kFlakyRuns = 20;

}  // namespace

std::vector<fs::path> reproducer_files(const std::vector<std::string>& inputs) {
  std::vector<fs::path> files;
  for (const auto& in : inputs) {
    const fs::path p(in);
    if (fs::is_directory(p)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::directory_iterator(p))
        if (e.is_regular_file() && e.path().extension() == ".json") found.push_back(e.path());
      std::sort(found.begin(), found.end());
      if (found.empty()) throw InputError(in + ": directory holds no .json reproducer");
      files.insert(files.end(), found.begin(), found.end());
    } else if (!fs::exists(p)) {
      throw InputError(in + ": no such file or directory");
    } else {
      files.push_back(p);
    }
  }
  return files;
}

int replay_reproducers(const std::vector<std::string>& inputs, const std::optional<std::string>& subject_override,
                       std::ostream& out, std::vector<ReplayOutcome>* outcomes, gen::CaseWorker* worker) {
  if (inputs.empty()) throw InputError("replay needs at least one FILE or DIR");
  const auto files = reproducer_files(inputs);
  // Read every file first: a bad file is an input error before anything runs.
  std::vector<Reproducer> repros;
  for (const auto& f : files) repros.push_back(read_reproducer(f));
  int still_failing = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const Reproducer& r = repros[i];
    const std::string where = files[i].string() + ": ";
    const gen::Family* family;
    try {
      family = &find_family(r.failing_case.family);
    } catch (const InputError& e) {
      throw InputError(where + "case.family: " + e.what());
    }
    const gen::SubjectEntry subject = family->find_subject(subject_override.value_or(r.subject));
    if (!subject.unavailable.empty())
      throw InputError(where + "subject " + subject.name + " cannot run here (" + subject.unavailable +
                       "); replay it on another with --subject");
    family->find_property(r.property);
    // The contract first: a case outside it is an input error of the file, unless the file
    // records exactly that (a generator's fault, kind invalid_case), which replays as parity's
    // fault. After the contract passed, whatever the check throws is the subject's `threw`.
    const auto run_once = [&] { return gen::case_verdict(*family, subject.name, r.property, r.failing_case, worker); };
    const bool recorded_invalid = r.observed.fails() && r.observed.kind == FailureKind::invalid_case;
    if (!recorded_invalid) {
      try {
        family->rules().check_contract(r.failing_case);
      } catch (const InputError& e) {
        throw InputError(where + "case: " + e.what());
      }
    }
    // A nondeterministic failure shows only on some runs: run it kFlakyRuns times, report the
    // first failure's verdict (else the last run's).
    const bool flaky = r.observed.fails() && r.observed.kind == FailureKind::nondeterministic;
    const int runs = flaky ? kFlakyRuns : 1;
    int failures = 0;
    Verdict v;
    for (int run = 0; run < runs; ++run) {
      Verdict w;
      try {
        w = run_once();
      } catch (const NotApplicable& e) {
        throw NotApplicable(where + e.what());
      }
      if (w.fails() && failures++ == 0) v = w;
      if (failures == 0) v = w;
    }
    still_failing += failures > 0;
    const std::string status = recorded_invalid && v.fails() && v.kind == FailureKind::invalid_case
                                   ? "FAULT OF PARITY (the case is outside the family's contract)  "
                               : !flaky ? (failures    ? "STILL FAILS  "
                                           : v.holds() ? "passes now   "
                                                       : "discarded    ")
                               : failures
                                   ? "flaky: failed " + std::to_string(failures) + " of " + std::to_string(runs) + "  "
                                   : "passes now (" + std::to_string(runs) + " runs)  ";
    if (outcomes) {
      const bool fault = recorded_invalid && v.fails() && v.kind == FailureKind::invalid_case;
      outcomes->push_back({files[i].string(), r, subject.name,
                           fault               ? "fault_of_parity"
                           : flaky && failures ? "flaky"
                           : failures          ? "still_fails"
                           : v.holds()         ? "passes_now"
                                               : "discarded",
                           v, runs, failures});
    }
    out << status << files[i].string() << "\n  " << r.failing_case.family << "/" << r.property << " on " << subject.name
        << ": " << r.failing_case.summary() << "\n  " << v.detail << "\n";
  }
  out << still_failing << " of " << files.size() << " reproducers still fail\n";
  return still_failing;
}

}  // namespace parity::registry
