#include <parity/families/model/op_kernels.hpp>

#include <map>
#include <mutex>
#include <stdexcept>

#include <parity/core/error.hpp>
#include <parity/families/model/routines/model_routines.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::properties::model {

using runtime::Backend;

std::optional<Backend> runtime_backend(const ops::OpSubjectInfo& info) {
  if (info.backend == "host" || info.backend == ops::kTorchOpCpuBackend) return Backend::host;
  if (info.backend == "cuda" || info.backend == ops::kTorchOpCudaBackend) return Backend::cuda;
  return std::nullopt;
}

std::vector<BoundKernel> bindable_kernels(const std::string& op) {
  std::vector<BoundKernel> out;
  for (const auto& info : ops::find_op_family(op).infos()) {
    const std::optional<Backend> backend = runtime_backend(info);
    if (info.kind != subjects::SubjectKind::implementation || !backend) continue;
    out.push_back({info.name, info.description, *backend, info.unavailable_reason});
  }
  return out;
}

const ops::OpSubjectInfo* find_op_kernel(const std::string& op, const std::string& name) {
  for (const auto& info : ops::find_op_family(op).infos())
    if (info.name == name) return &info;
  return nullptr;
}

const ops::OpSubjectInfo& bindable_subject(const std::string& op, const std::string& name, Backend backend) {
  const ops::OpSubjectInfo* info = find_op_kernel(op, name);
  if (!info) throw InputError(op + " has no subject " + name + " (parity list subjects)");
  if (info->kind != subjects::SubjectKind::implementation)
    throw InputError(op + " subject " + name + " is a " + subjects::subject_kind_name(info->kind) +
                     ", not an implementation: only a kernel under test serves the model's routines");
  if (runtime_backend(*info) != backend)
    throw InputError(op + " subject " + name + " runs on " + info->backend + ", not on the runtime's " +
                     runtime::backend_name(backend));
  return *info;
}

std::string kernel_unavailable(const std::string& op, const ops::OpSubjectInfo& info) {
  const std::string why = info.unavailable_reason ? info.unavailable_reason() : std::string();
  return why.empty() ? why : op + " subject " + info.name + ": " + why;
}

std::unique_ptr<ops::OpSubject> make_kernel(const std::string& op, const ops::OpSubjectInfo& info) {
  if (std::string why = kernel_unavailable(op, info); !why.empty()) throw InputError(why);
  std::unique_ptr<ops::OpSubject> kernel = info.make();
  if (!kernel) throw std::runtime_error(op + " subject " + info.name + " made no kernel");
  return kernel;
}

const ops::OpSubjectInfo& kernel_for_backend(const std::string& op, const ops::OpSubjectInfo& info, Backend backend) {
  if (runtime_backend(info) == backend) return info;
  if (backend == Backend::host && !info.host_twin.empty())
    if (const ops::OpSubjectInfo* twin = find_op_kernel(op, info.host_twin)) return *twin;
  throw InputError(op + " subject " + info.name + " has no host twin to compare its CUDA bits with");
}

runtime::RoutineRegistry routines_on_kernel(const parity::model::PrimitivesOf& of,
                                            const std::function<bool(const runtime::RoutineInfo&)>& binds,
                                            const std::string& subject, std::function<std::string()> unavailable) {
  const runtime::RoutineRegistry on_kernel = parity::model::model_routines_on(of);
  const auto& base = parity::model::model_routines().routines();
  runtime::RoutineRegistry r;
  for (std::size_t i = 0; i < base.size(); ++i) {
    if (!binds(base[i])) {
      r.add(base[i]);
      continue;
    }
    runtime::RoutineInfo routine = on_kernel.routines().at(i);
    routine.name += "=" + subject;
    routine.cannot_take = [unavailable, replaced = routine.cannot_take](const runtime::BoundaryCall& call, Backend b) {
      if (std::string why = replaced(call, b); !why.empty()) return why;
      return unavailable();
    };
    routine.self_check = [unavailable, check = routine.self_check](Backend b) {
      if (std::string why = unavailable(); !why.empty()) return why;
      return check(b);
    };
    r.add(std::move(routine));
  }
  return r;
}

const runtime::RoutineRegistry& routines_once(const std::string& key,
                                              const std::function<runtime::RoutineRegistry()>& build) {
  static std::mutex m;
  static std::map<std::string, std::unique_ptr<runtime::RoutineRegistry>> registries;
  std::lock_guard lock(m);
  auto& r = registries[key];
  if (!r) r = std::make_unique<runtime::RoutineRegistry>(build());
  return *r;
}

}  // namespace parity::properties::model
