#pragma once
// Mismatch probes of the model family: runtimes with one realistic defect each, which the
// model properties must catch.
//   silent-fallback     strict mode runs the provider where a routine cannot take the call, logs
//                       the routine as bound and raises nothing
//   perturbing-audit    audit mode rounds every bound routine's float32 outputs through bfloat16
//                       (a logging path that stores them as bf16)
//   ablation-ignored    ablations are parsed but not applied: the targets stay bound
//   batch-variant-projection  the video projections bound to a routine whose reduction order
//                       depends on the batch size (batch_variant_projection.hpp)
#include <memory>
#include <string>
#include <vector>

#include <parity/subjects/runtime/runtime.hpp>

namespace parity::subjects::probes {

struct RuntimeProbe {
  std::string name;
  std::string description;
  std::unique_ptr<runtime::Runtime> (*make)(const runtime::RoutineRegistry& routines, runtime::RuntimeOptions options);
};

const std::vector<RuntimeProbe>& model_runtime_probes();

}  // namespace parity::subjects::probes
