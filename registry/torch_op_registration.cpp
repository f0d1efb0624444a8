#include <parity/registry/torch_op_registration.hpp>

#include <parity/core/error.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/registry/families.hpp>
#include <parity/registry/replay.hpp>

namespace parity::registry {

std::string register_torch_op(const std::string& family, const ops::TorchOpSpec& spec) {
  std::string op_names;
  for (const gen::Family* f : ops::op_families()) {
    op_names += (op_names.empty() ? "" : ", ") + f->name();
    if (f->name() != family) continue;
    if (const auto* op = dynamic_cast<const ops::OpFamily*>(f)) return ops::register_torch_op_subject(*op, spec);
  }
  // A family whose subjects run ops' kernels (the model's routines): the operator as a kernel of one
  // of those ops, inside the family's subject.
  std::string hosts;
  for (const gen::Family* f : families()) {
    const std::vector<std::string> kernel_ops = f->kernel_ops();
    if (kernel_ops.empty()) continue;
    std::string ops_of;
    for (const std::string& o : kernel_ops) ops_of += (ops_of.empty() ? "" : ", ") + o;
    hosts += (hosts.empty() ? "" : "; ") + f->name() + " (" + ops_of + ")";
    if (f->name() != family) continue;
    const std::string kernel_op = spec.kernel_op.empty() ? kernel_ops.front() : spec.kernel_op;
    try {
      f->require_kernel_op(kernel_op);
    } catch (const InputError& e) {
      throw InputError(std::string("--kernel-op: ") + e.what());
    }
    std::string subject;
    try {  // the family's refusal of the device, before the operator is loaded
      subject = f->subject_with_kernel(kernel_op, ops::torch_op_subject_name(spec), spec.device);
    } catch (const InputError& e) {
      throw InputError(std::string("--torch-device: ") + e.what());
    }
    ops::TorchOpSpec as_kernel = spec;
    as_kernel.kernel_op.clear();
    try {
      register_torch_op(kernel_op, as_kernel);
      // The routines use every output of the kernel: none may go unchecked.
      std::string missing;
      for (const auto& o : ops::torch_op_unreturned(ops::find_op_family(kernel_op).def().decl, as_kernel))
        missing += (missing.empty() ? "" : ", ") + o;
      if (!missing.empty())
        throw InputError("--torch-returns: on " + family + " the operator is a kernel of " + kernel_op +
                         ", whose routines use every output; it returns no " + missing);
    } catch (const InputError& e) {
      if (!spec.kernel_op.empty() || std::string(e.what()).starts_with("--torch-returns: on ")) throw;
      throw InputError(std::string(e.what()) + " (on " + family + " the operator is a kernel of " + kernel_op +
                       " unless --kernel-op names another of " + ops_of + ")");
    }
    return subject;
  }
  throw InputError("--torch-op: " + family + " is not an op family; a torch operator is a subject of one of: " +
                   op_names + ", or a kernel of an op inside the subjects of: " + hosts);
}

namespace {

// The op whose kernel `spec`'s operator is in `subject`, a family's subject that runs it
// ("runtime-host+rms_norm=mylib::rms_norm": "rms_norm"), or "" where it records no such op.
std::string recorded_kernel_op(const std::string& subject, const ops::TorchOpSpec& spec) {
  const std::size_t plus = subject.find('+');
  const std::size_t eq = plus == std::string::npos ? plus : subject.find('=', plus);
  if (eq == std::string::npos || subject.substr(eq + 1) != ops::torch_op_subject_name(spec)) return "";
  return subject.substr(plus + 1, eq - plus - 1);
}

}  // namespace

void register_torch_op_for_reproducers(const std::vector<std::string>& inputs, const ops::TorchOpSpec& spec) {
  for (const auto& file : reproducer_files(inputs)) {
    const Reproducer r = read_reproducer(file);
    register_torch_op_for_subject(r.failing_case.family, r.subject, spec);
  }
}

void register_torch_op_for_subject(const std::string& family, const std::string& subject,
                                   const ops::TorchOpSpec& spec) {
  ops::TorchOpSpec recorded = spec;
  if (recorded.kernel_op.empty()) recorded.kernel_op = recorded_kernel_op(subject, spec);
  register_torch_op(family, recorded);
}

}  // namespace parity::registry
