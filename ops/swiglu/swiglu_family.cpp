// The swiglu and swiglu_backward op families: their declarations and references instantiated, and
// parity's own subjects of them registered as a user's are.
#include <parity/ops/swiglu/swiglu_family.hpp>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/swiglu/swiglu_backward_host.hpp>
#include <parity/ops/swiglu/swiglu_backward_op.hpp>
#include <parity/ops/swiglu/swiglu_cuda.hpp>
#include <parity/ops/swiglu/swiglu_host.hpp>
#include <parity/ops/swiglu/swiglu_op.hpp>
#include <parity/ops/swiglu/swiglu_torch.hpp>

namespace parity::ops::swiglu {
namespace {

void register_builtins() {
  register_builtin_subjects("swiglu", {.kernel = "parity's deterministic SwiGLU kernel",
                                       .make_host = &make_host_twin,
                                       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
                                       .torch = "LibTorch's at::silu(a) * b on the CPU",
                                       .make_torch = &make_torch_cpu});
  register_probes();
}

void register_backward_builtins() {
  register_builtin_subjects("swiglu_backward", {.kernel = "parity's deterministic SwiGLU backward kernel",
                                                .make_host = &make_backward_host_twin,
                                                .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_backward_kernel),
                                                .torch = "LibTorch's autograd of at::silu(a) * b on the CPU",
                                                .make_torch = &make_torch_cpu_backward});
  register_backward_probes();
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<Swiglu>(), &register_builtins);
  return f;
}

const gen::Family& backward_family() {
  static const OpFamily f(define_op<SwigluBackward>(), &register_backward_builtins);
  return f;
}

}  // namespace parity::ops::swiglu
