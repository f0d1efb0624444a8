// The softmax op: its declaration (softmax_op.hpp) with parity's kernels of it, LibTorch's and the mismatch probes
// (softmax_subjects.hpp).
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/softmax/softmax_host.hpp>
#include <parity/ops/softmax/softmax_op.hpp>
#include <parity/ops/softmax/softmax_subjects.hpp>

namespace parity::ops::softmax {

const gen::Family& family() {
  return shipped_op_family<Softmax>(
      {.kernel = "parity's deterministic softmax kernel",
       .make_host = &make_op_subject<SoftmaxHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = torch_subject("LibTorch's at::softmax and at::log_softmax on the CPU", &make_torch_cpu),
       .register_probes = &register_probes});
}

}  // namespace parity::ops::softmax
