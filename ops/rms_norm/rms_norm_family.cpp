// The rms_norm and rms_norm_backward op families: their declarations and references instantiated,
// and parity's own subjects of them registered as a user's are.
#include <parity/ops/rms_norm/rms_norm_family.hpp>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/rms_norm/rms_norm_backward_host.hpp>
#include <parity/ops/rms_norm/rms_norm_backward_op.hpp>
#include <parity/ops/rms_norm/rms_norm_cuda.hpp>
#include <parity/ops/rms_norm/rms_norm_host.hpp>
#include <parity/ops/rms_norm/rms_norm_op.hpp>
#include <parity/ops/rms_norm/rms_norm_torch.hpp>

namespace parity::ops::rms_norm {
namespace {

void register_builtins() {
  register_builtin_subjects("rms_norm", {.kernel = "parity's deterministic RMSNorm kernel",
                                         .make_host = &make_host_twin,
                                         .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
                                         .torch = "LibTorch's at::rms_norm on the CPU",
                                         .make_torch = &make_torch_cpu,
                                         .torch_unavailable = &torch_unavailable_reason});
  register_probes();
}

void register_backward_builtins() {
  register_builtin_subjects("rms_norm_backward", {.kernel = "parity's deterministic RMSNorm backward kernel",
                                                  .make_host = &make_backward_host_twin,
                                                  .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_backward_kernel),
                                                  .torch = "LibTorch's autograd through at::rms_norm on the CPU",
                                                  .make_torch = &make_torch_cpu_backward,
                                                  .torch_unavailable = &torch_unavailable_reason});
  register_backward_probes();
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<RmsNorm>(), &register_builtins);
  return f;
}

const gen::Family& backward_family() {
  static const OpFamily f(define_op<RmsNormBackward>(), &register_backward_builtins);
  return f;
}

}  // namespace parity::ops::rms_norm
