#pragma once
// The model family's subjects: runtimes. parity's own runtime binds the rows on the host twin
// or on CUDA (runtime-host, runtime-cuda); runtime-BACKEND+OP=NAME binds rows on the
// implementation subject NAME of an op and the other rows on parity's: linear, the float32
// projections (op_bound_rows.hpp); rms_norm, rope, swiglu, sdpa, every row that runs the op
// (primitive_bound_rows.hpp); transition_step, the transition step (transition_bound_rows.hpp).
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
  std::string backend;  // where the rows run: "host" or "cuda"
  subjects::SubjectKind kind = subjects::SubjectKind::implementation;
  std::string description;
  std::function<std::string()> unavailable;  // why it cannot run here, or ""
  // A fresh runtime over `registry()`'s rows for `options` (the subject sets the backend).
  std::function<std::unique_ptr<runtime::Runtime>(runtime::RuntimeOptions options)> make;
  // The rows those runtimes bind from, what the binding log is judged against; nullptr: the
  // model's own (families/model/rows/model_rows.hpp).
  const runtime::RowRegistry* rows = nullptr;
  const runtime::RowRegistry& registry() const;
};

const std::vector<ModelSubject>& model_subjects();
// The ops whose kernels runtime-BACKEND+OP=NAME subjects run: linear, then rms_norm, rope, swiglu,
// sdpa (primitive_bound_rows.hpp), then transition_step.
const std::vector<std::string>& model_kernel_ops();
// The name of the subject that runs the rows of `op` (linear: the float32 projections; rms_norm,
// rope, swiglu, sdpa: the rows that run it; transition_step: the transition step) on `kernel`, a
// subject of that op, with the other rows on `backend`: runtime-BACKEND+OP=KERNEL.
std::string model_subject_with_kernel(const std::string& op, const std::string& kernel, runtime::Backend backend);
// InputError listing the known names otherwise.
const ModelSubject& find_model_subject(const std::string& name);

}  // namespace parity::properties::model
