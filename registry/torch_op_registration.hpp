#pragma once
// A PyTorch operator (ops/torch_op/torch_op.hpp) registered with whichever family the command
// names: as the subject of an op family, or as the kernel of an op inside the subjects of a
// family that runs ops' kernels (the model, the trajectory). It looks across every family, so it
// lives in the registry.
#include <string>
#include <vector>

#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::registry {

// For an op family, ops::register_torch_op_subject. For a family whose subjects run an op's
// kernels (gen::Family::kernel_ops: model and trajectory), registers the operator with the op
// spec.kernel_op (by default the family's first, linear) and returns the family's subject that
// runs it (runtime-host+linear=mylib::linear, runtime-host+rms_norm=mylib::rms_norm). Returns the
// subject's name. Must come before the family's subjects are first listed. Throws InputError
// naming --torch-op when `family` is neither (listing both kinds), --kernel-op for an op the
// family runs no kernel of (or any other than `family` itself for an op family), --torch-device
// for a device the family cannot run the kernel on, and as ops::torch_op_subject does.
std::string register_torch_op(const std::string& family, const ops::TorchOpSpec& spec);

// Registers it with the family of each reproducer `inputs` names (files, or directories of them:
// registry::reproducer_files), for a replay (each reproducer records its subject; without
// spec.kernel_op, a subject runtime-host+OP=SCHEMA or bound-all+OP=SCHEMA of this operator gives
// the op). Throws InputError naming a bad file, or as register_torch_op does for any of those
// families (so a replay of reproducers of several families takes an operator every one of them
// can run).
void register_torch_op_for_reproducers(const std::vector<std::string>& inputs, const ops::TorchOpSpec& spec);

// register_torch_op for a run of `subject` of `family`: without spec.kernel_op, a subject
// runtime-host+OP=SCHEMA or bound-all+OP=SCHEMA of this operator gives the op (as a reproducer's
// subject does). What a worker (registry/case_worker_server.hpp) does before a family's first case.
void register_torch_op_for_subject(const std::string& family, const std::string& subject, const ops::TorchOpSpec& spec);

}  // namespace parity::registry
