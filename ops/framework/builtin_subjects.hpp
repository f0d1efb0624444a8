#pragma once
// parity's own subjects of an op, registered the one way every op parity ships registers them:
//   parity-host  its deterministic kernel's host twin;
//   parity-cuda  the CUDA kernel, bit for bit the host twin's (cross_backend_bitwise);
//                unavailable without a device, or where make_cuda is null (a build without CUDA);
//   torch-cpu    LibTorch's implementation, a reference subject: findings, never gated.
// then the op's mismatch probes, and its batch-shape probes where it has another plan. An op folder's <op>_op.cpp makes
// its family with shipped_op_family<Op>(subjects), which registers them before the op's subject list is first read.
#include <memory>
#include <string>

#include <parity/ops/framework/batch_shape_probes.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops {

using MakeOpSubject = std::unique_ptr<OpSubject> (*)();

struct BuiltinSubjects {
  std::string kernel;  // "parity's deterministic SwiGLU kernel"
  MakeOpSubject make_host = nullptr;
  MakeOpSubject make_cuda = nullptr;  // PARITY_OP_CUDA_KERNEL(&f): null in a build without CUDA
  // LibTorch's implementation, registered as torch-cpu (its name, backend and kind set here): by
  // schema name, torch_op_reference(...) (torch_op/torch_op.hpp), or written out, torch_subject(...);
  // either inside PARITY_OP_TORCH(...), which leaves it out of a build without LibTorch.
  OpSubjectInfo torch;
  void (*register_probes)() = nullptr;  // registers the op's mismatch probes (HostProbes)
  // The host twin with another evaluation plan (another reduction order: as accurate, other bits),
  // or null where the op has none (an elementwise op): the batch-shape probes run it on the batch
  // shapes of batch_shape_probes.hpp.
  MakeOpSubject other_plan = nullptr;
};

// LibTorch's implementation written out as a subject (`make`), for BuiltinSubjects::torch;
// `unavailable` (null: available wherever parity is built) says why not where it cannot run.
// An op folder whose reference is a torch_subject declares `make` in its <op>_op.hpp (plain C++,
// declarations only) and defines it in <op>_torch.cpp, the folder's only LibTorch source, which
// includes that header: a definition that disagrees with its declaration fails to compile or link.
OpSubjectInfo torch_subject(std::string description, MakeOpSubject make, std::string (*unavailable)() = nullptr);

// LibTorch's implementation in a build that does not link LibTorch (the libFuzzer harnesses',
// fuzz/README.md, or a program whose op family is compiled without parity::ops_torch's
// PARITY_HAVE_TORCH): a subject that is unavailable, saying so. PARITY_OP_TORCH gives it there.
OpSubjectInfo torch_not_linked();

void register_builtin_subjects(const std::string& op, const BuiltinSubjects& s);

// The family of `Op` (a declaration and reference, op_reference.hpp), made once, with `subjects`
// registered as parity's own before its subject list is first read.
template <class Op>
const gen::Family& shipped_op_family(BuiltinSubjects subjects) {
  static const OpFamily family(define_op<Op>(), [subjects = std::move(subjects)] {
    register_builtin_subjects(Op::declaration().name, subjects);
    if (subjects.other_plan) register_batch_shape_probes(Op::declaration(), subjects.make_host, subjects.other_plan);
  });
  return family;
}

}  // namespace parity::ops

// The CUDA kernel's factory where this build has CUDA (the op's .cu compiled), else null.
#if PARITY_HAVE_CUDA
#define PARITY_OP_CUDA_KERNEL(f) (f)
#else
#define PARITY_OP_CUDA_KERNEL(f) nullptr
#endif

// LibTorch's subject, the OpSubjectInfo `...`, where this build links LibTorch (parity_ops_torch,
// the op folders' *_torch.cpp, defines PARITY_HAVE_TORCH), else torch_not_linked(): the expression
// is not compiled, so the op's sources name no LibTorch symbol there.
#if PARITY_HAVE_TORCH
#define PARITY_OP_TORCH(...) (__VA_ARGS__)
#else
#define PARITY_OP_TORCH(...) ::parity::ops::torch_not_linked()
#endif
