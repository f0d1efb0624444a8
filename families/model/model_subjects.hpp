#pragma once
// The model family's subjects: runtimes. parity's own runtime binds the routines on the host twin
// or on CUDA (runtime-host, runtime-cuda); runtime-BACKEND+OP=NAME binds routines on the
// implementation subject NAME of an op and the other routines on parity's: linear, the float32
// projections (op_bound_routines.hpp); rms_norm, rope, swiglu, sdpa, every routine that runs the op
// (primitive_bound_routines.hpp); transition_step, the transition step (transition_bound_routines.hpp).
// The probes are runtimes with one defect each (model_runtime_probes.hpp).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <parity/subjects/runtime/runtime.hpp>
#include <parity/subjects/subject_info.hpp>  // SubjectKind

namespace parity::properties::model {

struct ModelSubject {
  std::string name;
  std::string backend;  // where the routines run: "host" or "cuda"
  subjects::SubjectKind kind = subjects::SubjectKind::implementation;
  std::string description;
  std::function<std::string()> unavailable;  // why it cannot run here, or ""
  // A fresh runtime over `registry()`'s routines for `options` (the subject sets the backend).
  std::function<std::unique_ptr<runtime::Runtime>(runtime::RuntimeOptions options)> make;
  // The routines those runtimes bind from, what the binding log is judged against; nullptr: the
  // model's own (families/model/routines/model_routines.hpp).
  const runtime::RoutineRegistry* routines = nullptr;
  const runtime::RoutineRegistry& registry() const;
};

const std::vector<ModelSubject>& model_subjects();
// The ops whose kernels runtime-BACKEND+OP=NAME subjects run: linear, then rms_norm, rope, swiglu,
// sdpa (primitive_bound_routines.hpp), then transition_step.
const std::vector<std::string>& model_kernel_ops();
// The name of the subject that runs the routines of `op` (linear: the float32 projections; rms_norm,
// rope, swiglu, sdpa: the routines that run it; transition_step: the transition step) on `kernel`, a
// subject of that op, with the other routines on `backend`: runtime-BACKEND+OP=KERNEL.
std::string model_subject_with_kernel(const std::string& op, const std::string& kernel, runtime::Backend backend);
// InputError listing the known names otherwise.
const ModelSubject& find_model_subject(const std::string& name);

}  // namespace parity::properties::model
