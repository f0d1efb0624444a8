#pragma once
// An op declaration behind the generic Family interface (properties/gen/family.hpp), so that
// `parity list`, `parity check OP`, `parity probes OP`, `parity replay`, family_properties_test
// and family_probes_test serve it with no code of its own: its registered subjects
// (op_subject.hpp) plus parity-oracles, the properties of op_checks.hpp, cases from op_case, a
// fresh subject instance per case.
//
// Applicability: layout_invariant does not apply to a subject without strided_layouts (and its
// cases are contiguous); cross_backend_bitwise applies to a subject with a host_twin only.
// Caps: a run draws each extent up to its declared max, or the user's cap (extent_caps()), and in
// its reach cases up to its declared reach (op_cases.hpp), or the user's cap, which sets both;
// its reach cases' largest operand and work up to the declared reach_elements and reach_work, or
// the user's caps reach_elements and reach_work (a subject fast at large sizes, a GPU kernel, run
// at the sizes where plans switch). A failure's rerun line carries the caps that differ from the
// declared ones or were given explicitly as --max EXT=N,... oracle_agreement draws no reach cases.
// Restrictions (RunConfig::restrictions): the dtypes and fixed parameters a user's kernel
// supports, applied to the generator the same way and carried on the rerun line.
// Cases carry output-straddling patches (op_cases.hpp, op_straddle.hpp).
#include <functional>
#include <set>
#include <string>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::ops {

// Generated cases per property of an op by default: enough that each probe of rms_norm and
// softmax, several of which need two extents at their thresholds at once, is detected in at
// least 19 of 20 seeds (bench/README.md has the measurement); an op's properties run in seconds.
inline constexpr int kOpCasesPerProperty = 100;

class OpFamily final : public gen::Family {
 public:
  // `register_builtins` registers parity's own subjects of the op; it runs once, before the
  // op's subject list is first read (a user's subjects, registered at static initialisation,
  // come first). `default_subject` is the subject `parity check OP` and the probes' control use.
  OpFamily(OpDef def, std::function<void()> register_builtins, std::string default_subject = "parity-host");

  std::string name() const override { return def_.decl.name; }
  std::string description() const override { return def_.decl.description; }
  std::vector<gen::SubjectEntry> subjects() const override;
  std::vector<gen::PropertyEntry> properties() const override;
  std::string default_subject() const override { return default_subject_; }
  // $PARITY_CASES, else kOpCasesPerProperty.
  int cases_per_property() const override { return gen::default_case_count(kOpCasesPerProperty); }
  Verdict check(const std::string& subject, const std::string& property, const Case& c) const override;
  gen::RunResult run(const std::string& subject, const std::string& property,
                     const gen::RunConfig& config) const override;
  void check_restrictions(const gen::CaseRestrictions& r) const override {
    generated(gen::resolve_extent_caps(name(), extent_caps(), {}), r, {});
  }
  rc::Gen<Case> cases() const override;
  const gen::CaseRules& rules() const override { return rules_; }
  // Every declared extent: default its max, limit its limit, min its min (capped by
  // `parity check OP --max T=N`, $PARITY_MAX_<EXTENT>, RunConfig::max_extents). Then
  // the reach cases' caps kReachElementsCap and (for an op that declares its work) kReachWorkCap:
  // default reach_elements and reach_work, min max_elements and max_work (the oracle's caps, which
  // no run moves), limit kElementsLimit and kWorkLimit.
  std::vector<gen::ExtentCap> extent_caps() const override;
  // The declared inputs the case has, in declaration order and in the case's layouts (packed ones
  // packed, op_view.hpp), then the declared parameters as float32 scalars, then for each ragged
  // extent (op_decl.hpp) its offsets "cu_seqlens" (float64 [rows + 1], exact integers: the .pt
  // writer holds parity's float dtypes only; `.int()` gives FlashAttention's int32) and its
  // bound "max_seqlen" (a float64 scalar, the case's value of the extent), each suffixed
  // "_<extent>" where the op has several ragged extents.
  std::vector<std::pair<std::string, Tensor>> case_tensors(const Case& c) const override;

  const OpDef& def() const { return def_; }
  // The op's definition under a run's caps, the one `run` draws its cases from: each extent the
  // user caps (config.max_extents, $PARITY_MAX_<EXTENT>; extent_caps()) with its max and its reach
  // at the cap (a cap at the declared max included), reach_elements and reach_work at theirs, and
  // config.restrictions applied as `generated` does (InputError naming --dtypes or --param). Writes
  // to resolved.max_extents the caps a rerun line carries: those that differ from the declared
  // ones or that the user gave. A family whose cases are the op's (the lora family, transition)
  // runs on it too. InputError for a cap outside its extent's limits (gen::resolve_extent_caps).
  OpDef run_def(const gen::RunConfig& config, gen::RunConfig& resolved) const;
  // Every registered subject of the op, parity's own among them. The first read fixes the list:
  // a registration after it throws std::logic_error.
  const std::vector<OpSubjectInfo>& infos() const;
  // The registered subject `subject`; InputError listing the known subjects when there is none,
  // naming why when it cannot run here (parity-cuda without a device).
  const OpSubjectInfo& runnable(const std::string& subject) const;

 private:
  // The check `property` runs on cases for `subject` (resolving the self-check and applicability
  // rules); `why_not` is set, and the check empty, where the property does not apply. A failure's
  // detail ends with the case's parameters.
  std::function<Verdict(const Case&)> check_for(const std::string& subject, const std::string& property,
                                                std::string& why_not) const;
  std::function<Verdict(const Case&)> unlabelled_check_for(const std::string& subject, const std::string& property,
                                                           std::string& why_not) const;

  // The op its generator draws from: each extent's max set from `maxima` (resolved caps), and its
  // reach to the same where `capped` names it (the user's caps), each
  // dtype group's dtypes those of `r` it declares, each parameter of `r` fixed to its value
  // rounded to float32. InputError naming --dtypes or --param for a dtype no group takes, a group
  // left with none, a parameter the op does not declare, or a value outside its contract.
  OpDef generated(const gen::ExtentMaxima& maxima, const gen::CaseRestrictions& r,
                  const std::set<std::string>& capped) const;

  OpDef def_;
  std::function<void()> register_builtins_;
  std::string default_subject_;
  gen::CaseRules rules_;
};

}  // namespace parity::ops
