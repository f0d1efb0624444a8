#pragma once
// parity's own subjects of an op, registered the one way every op parity ships registers them:
//   rlkernels-host  its deterministic kernel's host twin;
//   rlkernels-cuda  the CUDA kernel, bit for bit the host twin's (cross_backend_bitwise);
//                   unavailable without a device, or where make_cuda is null (a build without CUDA);
//   torch-cpu       LibTorch's implementation, a reference subject: findings, never gated.
// Call it from the op's register_builtins (op_family.hpp), which then registers its probes.
#include <memory>
#include <string>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops {

using MakeOpSubject = std::unique_ptr<OpSubject> (*)();

struct BuiltinSubjects {
  std::string kernel;  // "parity's deterministic SwiGLU kernel"
  MakeOpSubject make_host = nullptr;
  MakeOpSubject make_cuda = nullptr;  // PARITY_OP_CUDA_KERNEL(&f): null in a build without CUDA
  std::string torch;                  // "LibTorch's at::silu(a) * b on the CPU"
  MakeOpSubject make_torch = nullptr;
  std::string (*torch_unavailable)() = nullptr;  // null: available wherever parity is built
};

void register_builtin_subjects(const std::string& op, const BuiltinSubjects& s);

}  // namespace parity::ops

// The CUDA kernel's factory where this build has CUDA (the op's .cu compiled), else null.
#if PARITY_HAVE_CUDA
#define PARITY_OP_CUDA_KERNEL(f) (f)
#else
#define PARITY_OP_CUDA_KERNEL(f) nullptr
#endif
