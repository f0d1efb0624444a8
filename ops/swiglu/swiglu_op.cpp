// The swiglu and swiglu_backward ops: their declarations (swiglu_op.hpp, swiglu_backward_op.hpp) with parity's kernels
// of them, LibTorch's and the mismatch probes (swiglu_subjects.hpp).
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/swiglu/swiglu_backward_host.hpp>
#include <parity/ops/swiglu/swiglu_backward_op.hpp>
#include <parity/ops/swiglu/swiglu_host.hpp>
#include <parity/ops/swiglu/swiglu_op.hpp>
#include <parity/ops/swiglu/swiglu_subjects.hpp>

namespace parity::ops::swiglu {

const gen::Family& family() {
  return shipped_op_family<Swiglu>({.kernel = "parity's deterministic SwiGLU kernel",
                                    .make_host = &make_op_subject<SwigluHost<Standard>>,
                                    .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
                                    .torch = torch_subject("LibTorch's at::silu(a) * b on the CPU", &make_torch_cpu),
                                    .register_probes = &register_probes});
}

const gen::Family& backward_family() {
  return shipped_op_family<SwigluBackward>(
      {.kernel = "parity's deterministic SwiGLU backward kernel",
       .make_host = &make_op_subject<SwigluBackwardHost<BackwardStandard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_backward_kernel),
       .torch = torch_subject("LibTorch's autograd of at::silu(a) * b on the CPU", &make_torch_cpu_backward),
       .register_probes = &register_backward_probes});
}

}  // namespace parity::ops::swiglu
