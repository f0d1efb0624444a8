#include <mutex>
#include <set>
#include <utility>

#include <parity/core/error.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::ops {

std::string register_torch_op_subject(const OpFamily& op, const TorchOpSpec& spec) {
  static std::mutex m;
  static std::set<std::pair<std::string, std::string>> registered;
  if (!spec.kernel_op.empty() && spec.kernel_op != op.name())
    throw InputError("--kernel-op: " + op.name() + " is an op family: the operator is its subject, not a kernel of " +
                     spec.kernel_op);
  const std::string name = torch_op_subject_name(spec);
  std::lock_guard lock(m);
  if (registered.emplace(op.name(), name).second) register_op_subject(op.name(), torch_op_subject(op.def().decl, spec));
  return name;
}

}  // namespace parity::ops
