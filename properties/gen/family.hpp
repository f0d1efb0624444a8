#pragma once
// A family as the `parity` command and the tests see it: its subjects, its properties, one
// check of a Case, and runs over generated Cases. Each family (an op, lora, ...) implements this
// once over its own typed subjects; everything generic (check, probes, replay, list) goes
// through it.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/tensor.hpp>
#include <parity/core/verdict.hpp>
#include <parity/properties/gen/case_rules.hpp>
#include <parity/properties/gen/run_property.hpp>
#include <parity/subjects/subject_info.hpp>

namespace parity::gen {

// What a subject is to its family: an implementation must pass every property, a reference
// (LibTorch) is run for findings, a probe must be caught. The subjects' own enum.
using SubjectRole = subjects::SubjectKind;

struct SubjectEntry {
  std::string name;
  std::string backend;  // "host", "cuda", "torch-cpu", ...
  SubjectRole role = SubjectRole::implementation;
  std::string description;
  std::string unavailable;  // why it cannot run here, or empty
};

struct PropertyEntry {
  std::string name;
  std::string description;
  bool needs_subject = true;  // false: a check of parity's own oracles
};

// The pseudo-subject under which a family's self-checks of parity's own oracles run
// (PropertyEntry::needs_subject false): they never call a subject, so their failures are faults
// of parity, never a verdict on a subject. Family::run and Family::check accept it for those
// properties only, and refuse those properties on a real subject. ctest runs them under the
// `oracle` label; `parity check FAMILY --subject parity-oracles` runs them by hand.
inline constexpr const char* kOraclesSubject = "parity-oracles";

class Family {
 public:
  virtual ~Family() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual std::vector<SubjectEntry> subjects() const = 0;
  virtual std::vector<PropertyEntry> properties() const = 0;
  // The subject `parity check` uses when none is named.
  virtual std::string default_subject() const = 0;
  // Generated cases per property of a run whose RunConfig::cases is 0: $PARITY_CASES, else
  // the family's default, chosen so that a run detects every probe of the family in at least
  // 19 of 20 seeds (bench/README.md); kDefaultCasesPerProperty unless the family says.
  virtual int cases_per_property() const { return default_case_count(kDefaultCasesPerProperty); }
  // One Case. Throws InputError for an unknown subject or property, a subject that cannot
  // run here, or a Case this family cannot materialise; NotApplicable (core/error.hpp) for a
  // property that does not apply to the subject. A self-check of parity's oracles runs under
  // kOraclesSubject only (NotApplicable otherwise).
  virtual Verdict check(const std::string& subject, const std::string& property, const Case& c) const = 0;
  // Generated Cases, shrinking and reproducers (run_property). Throws InputError for restrictions
  // (RunConfig::restrictions) check_restrictions refuses.
  virtual RunResult run(const std::string& subject, const std::string& property, const RunConfig& config) const = 0;
  // Throws InputError naming --dtypes or --param for restrictions of the generated cases this
  // family cannot apply: any, unless it is an op family (case_restrictions.hpp). For a command
  // to check before its work.
  virtual void check_restrictions(const CaseRestrictions& r) const { refuse_restrictions(name(), r); }
  // The generator run() draws from (with the family's default caps), and the contract every
  // Case it draws satisfies, with the consistency rules the shrinker keeps.
  virtual rc::Gen<Case> cases() const = 0;
  virtual const CaseRules& rules() const = 0;
  // The extents a user may cap (extent_caps.hpp: --max EXT=N, $PARITY_MAX_<EXTENT>,
  // RunConfig::max_extents), with their defaults and the contract's limits; empty for a family
  // whose generator takes no caps (run refuses any then).
  virtual std::vector<ExtentCap> extent_caps() const { return {}; }
  // The operands of `c` exactly as this family materialises them for a subject (the same bits,
  // under their layouts; patches applied), then its scalars as 0-dimensional tensors, for
  // `parity export`. Throws InputError naming the field for a case outside the contract, and
  // (the default) "case.family: '<name>' has no exported tensors ..." for a family whose inputs
  // are drawn inside its run (model, trajectory, bridge).
  virtual std::vector<std::pair<std::string, Tensor>> case_tensors(const Case& c) const;
  // A family whose subjects can run a kernel of an op in place of parity's (the model: a kernel of
  // linear at its float32 projections, of rms_norm, rope, swiglu or sdpa in the routines that run it,
  // of transition_step at its transition step) names those ops, the first the default for a
  // PyTorch operator (--torch-op without --kernel-op); empty (the default): none. A kernel
  // registered with such an op before this family's subjects are first listed is among them, as
  // the subject subject_with_kernel names: the one that runs `kernel`, a subject of `op`, for
  // `device` ("cpu" or "cuda"), `op` one of kernel_ops() (require_kernel_op). Throws InputError
  // for a device the family cannot run the kernel on.
  virtual std::vector<std::string> kernel_ops() const { return {}; }
  virtual std::string subject_with_kernel(const std::string& op, const std::string& kernel,
                                          const std::string& device) const;
  // Throws InputError "<family> runs kernels of A, B, not of OP" unless `op` is one of
  // kernel_ops() ("... runs no op's kernel in parity's place" where there are none).
  void require_kernel_op(const std::string& op) const;

  // Helpers over the lists above; throw InputError naming the known entries.
  SubjectEntry find_subject(const std::string& name) const;
  // A family may refuse a property it no longer has naming what replaced it.
  virtual PropertyEntry find_property(const std::string& name) const;
};

// One Case of `property` on `subject` as every runner counts it (guarded_verdict.hpp): the family's
// contract checked here, then Family::check(subject, property, c), in `worker` when given
// (case_worker.hpp: a crash or a hang is the verdict), else in this process. For the commands that
// check single Cases (replay, fuzz-repro).
Verdict case_verdict(const Family& family, const std::string& subject, const std::string& property, const Case& c,
                     CaseWorker* worker);

struct ProbeDetection {
  std::string property;  // the first property, in the rounds' order, that failed on the probe
  RunResult result;      // its shrunk counterexample and reproducer
  // Cases every run ran, in every round, up to and including the detecting one's (with
  // config.shrink off, up to its first failing case): what detection cost.
  int cases_to_detect = 0;
};

// Runs the family's subject-facing properties (or only those of `properties`, where not empty; an
// unknown name is an InputError) on `probe` in rounds, as `parity check` does
// (property_rounds.hpp), until one fails on a case that the family's default implementation
// passes; nullopt if none does within config.cases cases each. Each property draws its cases
// from config.seed whatever else runs, so a detection by a subset is one by every property too.
std::optional<ProbeDetection> detect_probe(const Family& family, const std::string& probe, const RunConfig& config,
                                           std::vector<std::string> properties = {});

}  // namespace parity::gen
