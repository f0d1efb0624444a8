#pragma once
// The model family's properties: check functions Case x runtime subject -> Verdict, shared by
// RapidCheck (families/model/model_runs), `parity check|probes|replay` and the gate.
#include <string>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/verdict.hpp>
#include <parity/families/model/model_problem.hpp>
#include <parity/families/model/model_subjects.hpp>
#include <parity/families/model/torch/model_torch.hpp>

namespace parity::properties::model {

struct ModelProperty {
  std::string name;
  std::string description;
  Verdict (*check)(const Case& c, const ModelSubject& subject);
};

// strict_repeatable, audit_equals_strict, off_equals_provider, binding_log_matches,
// strict_raises_on_fallback, batch_invariant_bound, accuracy_vs_provider. The properties that
// run strict take a case's bf16 audio (a forced fallback, on which strict raises by design) as
// float32; strict_raises_on_fallback forces it on every case.
const std::vector<ModelProperty>& model_properties();
const ModelProperty& find_model_property(const std::string& name);  // InputError otherwise

// One run of the model under `subject` with `options`: the outputs and the runtime's log.
struct ModelRun {
  parity::model::ModelOutputs out;
  runtime::BindingLog log;
  std::string case_id;
};
ModelRun run_with(const ModelProblem& p, const ModelSubject& subject, const runtime::RuntimeOptions& options);

// The first output of a and b whose bits differ, as "video: 3 of 384 elements differ; first
// at [0, 2, 5]: ...", or "" when all five outputs are bitwise equal.
std::string first_bitwise_difference(const parity::model::ModelOutputs& a, const parity::model::ModelOutputs& b);

// Accuracy of a float32 run against the float64 reference, output by output, with the
// tolerance each must meet (see model_accuracy.cpp for the derivation).
struct OutputAccuracy {
  std::string output;               // "video", "audio", "input_grad", "prev", "logp"
  double rel_diff_vs_provider = 0;  // ||routines - provider|| / ||provider||
  double routines_rel_err = 0;      // ||routines - f64|| / ||f64||
  double provider_rel_err = 0;      // ||provider - f64|| / ||f64||
  double tolerance = 0;             // bound on routines_rel_err
  bool within() const { return routines_rel_err <= tolerance; }
};
std::vector<OutputAccuracy> accuracy_against(const parity::model::ModelOutputs& routines,
                                             const parity::model::ModelOutputs& provider,
                                             const parity::model::ModelOutputs& f64);

}  // namespace parity::properties::model
