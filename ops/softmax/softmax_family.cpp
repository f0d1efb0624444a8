// The softmax op family: its declaration and reference (softmax_op.hpp) instantiated, and
// parity's own subjects of it registered as a user's are.
#include <parity/ops/softmax/softmax_family.hpp>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/softmax/softmax_cuda.hpp>
#include <parity/ops/softmax/softmax_host.hpp>
#include <parity/ops/softmax/softmax_op.hpp>
#include <parity/ops/softmax/softmax_torch.hpp>

namespace parity::ops::softmax {
namespace {

void register_builtins() {
  register_builtin_subjects("softmax", {.kernel = "parity's deterministic softmax kernel",
                                        .make_host = &make_host_twin,
                                        .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
                                        .torch = "LibTorch's at::softmax and at::log_softmax on the CPU",
                                        .make_torch = &make_torch_cpu});
  register_probes();
}

}  // namespace

const gen::Family& family() {
  static const OpFamily f(define_op<Softmax>(), &register_builtins);
  return f;
}

}  // namespace parity::ops::softmax
