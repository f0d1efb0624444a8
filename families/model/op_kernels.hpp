#pragma once
// The kernels of an op (ops/) that the model's routines can be bound to (op_bound_routines.hpp,
// primitive_bound_routines.hpp, transition_bound_routines.hpp): implementation subjects — not references
// or probes — whose backend is the runtime's host or cuda. parity's and a user's kernels run on
// "host" or "cuda"; a PyTorch operator registered as a subject (ops/torch_op) on CPU or CUDA
// tensors maps to host or cuda; any other backend (LibTorch's own torch-cpu, a reference anyway)
// is not bindable.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <parity/families/model/routines/primitives.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/subjects/runtime/routine.hpp>
#include <parity/subjects/runtime/routine_registry.hpp>

namespace parity::properties::model {

// A bindable kernel, as the model's subjects list it.
struct BoundKernel {
  std::string name, description;
  runtime::Backend backend = runtime::Backend::host;
  std::function<std::string()> unavailable;  // may be empty: always available
};

// The runtime backend a subject of an op runs on; nullopt where it is not bindable.
std::optional<runtime::Backend> runtime_backend(const ops::OpSubjectInfo& info);

// Every bindable kernel of `op`, in registration order (fixes the op's subject list).
std::vector<BoundKernel> bindable_kernels(const std::string& op);

// The subject `name` of `op`, or nullptr.
const ops::OpSubjectInfo* find_op_kernel(const std::string& op, const std::string& name);

// The subject `name` of `op`, checked bindable on `backend`; throws InputError naming the op
// and the subject when it has no such subject, it is a reference or a probe, or it runs on
// another backend.
const ops::OpSubjectInfo& bindable_subject(const std::string& op, const std::string& name, runtime::Backend backend);

// Why the kernel cannot run here, named ("OP subject NAME: why"), or "".
std::string kernel_unavailable(const std::string& op, const ops::OpSubjectInfo& info);

// A fresh instance; InputError when it cannot run here, runtime_error when it makes none.
std::unique_ptr<ops::OpSubject> make_kernel(const std::string& op, const ops::OpSubjectInfo& info);

// The kernel that serves `backend` for a routine bound to `info`: `info` itself on its own backend;
// on the host, for a CUDA kernel, its host twin (the bits auto mode's self-check compares on
// CUDA). Throws InputError where there is none (a CUDA kernel without a host twin).
const ops::OpSubjectInfo& kernel_for_backend(const std::string& op, const ops::OpSubjectInfo& info,
                                             runtime::Backend backend);

// The model's routines with each routine that `binds` made on the primitives `of` gives (parity's with one
// op's on a kernel) instead of parity's: named "ROUTINE=SUBJECT", its acceptance, opt-in group and
// boundary kept, and where `unavailable()` says why the kernel cannot run here, refusing every
// call and failing its self-check (the routine's own, run on the kernel) with that reason. The other
// routines are parity's, unchanged. What every binding of a kernel in the model builds on
// (op_bound_routines.hpp, primitive_bound_routines.hpp, transition_bound_routines.hpp).
runtime::RoutineRegistry routines_on_kernel(const parity::model::PrimitivesOf& of,
                                            const std::function<bool(const runtime::RoutineInfo&)>& binds,
                                            const std::string& subject, std::function<std::string()> unavailable);

// The registry `build` makes for `key` ("BINDING:OP=SUBJECT", the binding's name first, so two
// bindings of one op never share a registry), built on the first call for that key and kept for
// the program's lifetime (the runtimes a subject makes refer to it). Thread-safe; builds are
// serialised.
const runtime::RoutineRegistry& routines_once(const std::string& key,
                                              const std::function<runtime::RoutineRegistry()>& build);

}  // namespace parity::properties::model
