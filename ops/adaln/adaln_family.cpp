// The adaln op family: its declaration and reference (adaln_op.hpp) instantiated, and parity's
// own subjects of it registered as a user's are.
#include <parity/ops/adaln/adaln_family.hpp>

#include <parity/ops/adaln/adaln_cuda.hpp>
#include <parity/ops/adaln/adaln_host.hpp>
#include <parity/ops/adaln/adaln_op.hpp>
#include <parity/ops/adaln/adaln_torch.hpp>
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>

namespace parity::ops::adaln {
namespace {

void register_builtins() {
  register_builtin_subjects("adaln", {.kernel = "parity's deterministic AdaLN kernel",
                                      .make_host = &make_host_twin,
                                      .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
                                      .torch = "LibTorch's at::layer_norm(x) * (1 + scale) + shift on the CPU",
                                      .make_torch = &make_torch_cpu});
  register_probes();
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<AdaLN>(), &register_builtins);
  return f;
}

}  // namespace parity::ops::adaln
