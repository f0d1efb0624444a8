#include <parity/families/model/model_subjects.hpp>

#include <parity/core/find_named.hpp>
#include <parity/families/model/model_runtime_probes.hpp>
#include <parity/families/model/op_bound_routines.hpp>
#include <parity/families/model/primitive_bound_routines.hpp>
#include <parity/families/model/routines/model_routines.hpp>
#include <parity/families/model/routines/primitives.hpp>
#include <parity/families/model/transition_bound_routines.hpp>

namespace parity::properties::model {
namespace {

std::vector<ModelSubject> build() {
  std::vector<ModelSubject> all;
  for (auto backend : {runtime::Backend::host, runtime::Backend::cuda}) {
    const std::string b = runtime::backend_name(backend);
    all.push_back({"runtime-" + b, b, subjects::SubjectKind::implementation,
                   "parity's runtime, routines on parity's op kernels (" +
                       std::string(backend == runtime::Backend::host ? "host twins" : "CUDA") + ")",
                   [backend] { return parity::model::backend_unavailable_reason(backend); },
                   [backend](runtime::RuntimeOptions o) {
                     o.backend = backend;
                     return std::make_unique<runtime::Runtime>(parity::model::model_routines(), o);
                   }});
  }
  // parity's runtime with the float32 projections on a kernel of the op linear
  // (op_bound_routines.hpp), the transition step on a kernel of transition_step
  // (transition_bound_routines.hpp), or the primitive of rms_norm, rope, swiglu or sdpa on a kernel of
  // that op in every routine that runs it (primitive_bound_routines.hpp): every such implementation
  // subject, a user's registered ones included.
  struct Binding {
    std::string op;
    std::string where;
    std::vector<BoundKernel> kernels;
    std::function<const runtime::RoutineRegistry&(const std::string&, runtime::Backend)> routines;
  };
  std::vector<Binding> bindings = {
      {kProjectionOp, "the float32 projections", projection_kernels(), &routines_with_projection_kernel},
      {kTransitionOp, "the transition step", transition_kernels(), &routines_with_transition_kernel}};
  for (const std::string& op : primitive_ops()) {
    std::string routines;
    for (const std::string& routine : routines_running(op)) routines += (routines.empty() ? "" : ", ") + routine;
    bindings.push_back({op, op + " in " + routines, primitive_kernels(op),
                        [op](const std::string& kernel, runtime::Backend backend) -> const runtime::RoutineRegistry& {
                          return routines_with_primitive_kernel(op, kernel, backend);
                        }});
  }
  for (const Binding& binding : bindings) {
    for (const auto& k : binding.kernels) {
      const std::string b = runtime::backend_name(k.backend);
      const auto routines = binding.routines;
      all.push_back({model_subject_with_kernel(binding.op, k.name, k.backend), b, subjects::SubjectKind::implementation,
                     "parity's runtime, " + binding.where + " on " + binding.op + "'s " + k.name + " (" +
                         k.description + "), the other routines on parity's op kernels (" +
                         (k.backend == runtime::Backend::host ? "host twins" : "CUDA") + ")",
                     [k] {
                       if (std::string why = parity::model::backend_unavailable_reason(k.backend); !why.empty())
                         return why;
                       return k.unavailable ? k.unavailable() : std::string();
                     },
                     [k, routines](runtime::RuntimeOptions o) {
                       o.backend = k.backend;
                       return std::make_unique<runtime::Runtime>(routines(k.name, k.backend), o);
                     },
                     &routines(k.name, k.backend)});
    }
  }
  for (const auto& p : subjects::probes::model_runtime_probes())
    all.push_back({p.name, "host", subjects::SubjectKind::probe, p.description, [] { return std::string(); },
                   [make = p.make](runtime::RuntimeOptions o) {
                     o.backend = runtime::Backend::host;
                     return make(parity::model::model_routines(), o);
                   }});
  return all;
}

}  // namespace

const runtime::RoutineRegistry& ModelSubject::registry() const {
  return routines ? *routines : parity::model::model_routines();
}

std::string model_subject_with_kernel(const std::string& op, const std::string& kernel, runtime::Backend backend) {
  return "runtime-" + std::string(runtime::backend_name(backend)) + "+" + op + "=" + kernel;
}

const std::vector<std::string>& model_kernel_ops() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> out = {kProjectionOp};
    for (const std::string& op : primitive_ops()) out.push_back(op);
    out.push_back(kTransitionOp);
    return out;
  }();
  return ops;
}

const std::vector<ModelSubject>& model_subjects() {
  static const std::vector<ModelSubject> all = build();
  return all;
}

const ModelSubject& find_model_subject(const std::string& name) {
  return find_named(model_subjects(), name, "model subject");
}

}  // namespace parity::properties::model
