#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>

#include <unistd.h>

#include <parity/cli/args.hpp>
#include <parity/cli/case_worker_flags.hpp>
#include <parity/cli/commands.hpp>
#include <parity/cli/extent_caps.hpp>
#include <parity/cli/result_outputs.hpp>
#include <parity/core/error.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/registry/families.hpp>

namespace parity::cli {
namespace {

// The record of one probe: detected (by its first failing property, with the shrunk case and
// reproducer) or not, which is a failure of parity.
ResultRecord probe_record(const gen::Family& family, const gen::SubjectEntry& probe,
                          const std::optional<gen::ProbeDetection>& detection) {
  ResultRecord r{.family = family.name(), .property = detection ? detection->property : "", .subject = probe.name};
  r.extra = {{"description", probe.description},
             {"detected_by", detection ? nlohmann::json(detection->property) : nlohmann::json()}};
  if (!detection) {
    r.status = "not_detected";
    r.failed = true;
    r.detail = "no property of " + family.name() + " detected the probe: a failure of parity";
    return r;
  }
  const auto& result = detection->result;
  r.status = "detected";
  r.kind = result.verdict->kind;
  r.failing_case = result.counterexample;
  r.detail = result.verdict->detail;
  r.map = result.verdict->map;
  r.reproducer = result.reproducer;
  r.rerun = result.rerun;
  r.cases = result.cases;
  r.discarded = result.discarded;
  r.extra["after_cases"] = result.cases;
  return r;
}

}  // namespace

int cmd_probes(const Args& args) {
  if (args.positional().size() > 1) throw InputError("probes takes at most one FAMILY");
  std::vector<const gen::Family*> selected = registry::families();
  if (!args.positional().empty()) selected = {&registry::find_family(args.positional()[0])};
  gen::RunConfig config;
  config.cases = static_cast<int>(args.number("--cases", 200, 1, kMaxCount));
  config.repro_dir = writable_repro_dir(args, "--repro-dir");
  config.worker = case_worker(args, std::nullopt);
  std::map<const gen::Family*, gen::ExtentMaxima> caps;
  for (const gen::Family* family : selected) caps[family] = extent_caps(args, *family, selected);
  const ResultOutputs outputs(args);
  std::ostream& out = outputs.human();
  // Progress on a terminal only: a line per finished probe, with its time and how many are left.
  std::ostream* progress = ::isatty(2) ? &std::cerr : nullptr;
  config.progress = progress;

  std::vector<std::pair<const gen::Family*, gen::SubjectEntry>> probes;
  for (const gen::Family* family : selected)
    for (const auto& subject : family->subjects())
      if (subject.role == gen::SubjectRole::probe) probes.emplace_back(family, subject);

  std::vector<ResultRecord> records;
  int undetected = 0;
  // Columns as wide as their longest entry, and a space.
  std::size_t family_width = std::string("family").size(), probe_width = std::string("probe").size();
  for (const auto& [family, probe] : probes) {
    family_width = std::max(family_width, family->name().size());
    probe_width = std::max(probe_width, probe.name.size());
  }
  const int fw = static_cast<int>(family_width) + 1, pw = static_cast<int>(probe_width) + 1;
  out << std::left << std::setw(fw) << "family" << std::setw(pw) << "probe" << std::setw(28) << "detected by"
      << "shrunk case\n";
  for (const auto& [family, probe] : probes) {
    const auto start = std::chrono::steady_clock::now();
    gen::RunConfig family_config = config;
    family_config.max_extents = caps[family];
    const auto detection = gen::detect_probe(*family, probe.name, family_config);
    records.push_back(probe_record(*family, probe, detection));
    if (progress)
      *progress << "parity probes: [" << records.size() << "/" << probes.size() << "] " << family->name() << "/"
                << probe.name << ": " << (detection ? "detected by " + detection->property : "NOT DETECTED") << " ("
                << std::setprecision(3)
                << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s)\n";
    out << std::setw(fw) << family->name() << std::setw(pw) << probe.name;
    if (detection) {
      out << std::setw(28) << detection->property << detection->result.counterexample->summary() << "\n";
    } else {
      ++undetected;
      out << std::setw(28) << "NOT DETECTED"
          << "-\n";
    }
  }
  outputs.write(records);
  out << (undetected ? std::to_string(undetected) + " probe(s) not detected: a failure of parity\n"
                     : "every probe detected\n");
  return undetected ? 1 : 0;
}

}  // namespace parity::cli
