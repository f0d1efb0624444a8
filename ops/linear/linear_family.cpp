// The linear op family: its declaration and reference (linear_op.hpp) instantiated, and parity's
// own subjects of it registered as a user's are.
#include <parity/ops/linear/linear_family.hpp>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/linear/linear_cuda.hpp>
#include <parity/ops/linear/linear_host.hpp>
#include <parity/ops/linear/linear_op.hpp>
#include <parity/ops/linear/linear_torch.hpp>

namespace parity::ops::linear {
namespace {

void register_builtins() {
  register_builtin_subjects("linear", {.kernel = "parity's deterministic linear kernel",
                                       .make_host = &make_host_twin,
                                       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
                                       .torch = "LibTorch's at::linear on the CPU",
                                       .make_torch = &make_torch_cpu});
  register_probes();
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<Linear>(), &register_builtins);
  return f;
}

}  // namespace parity::ops::linear
