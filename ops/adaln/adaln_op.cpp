// The adaln op: its declaration (adaln_op.hpp) with parity's kernels of it, LibTorch's and the mismatch probes
// (adaln_subjects.hpp).
#include <parity/ops/adaln/adaln_host.hpp>
#include <parity/ops/adaln/adaln_op.hpp>
#include <parity/ops/adaln/adaln_subjects.hpp>
#include <parity/ops/framework/builtin_subjects.hpp>

namespace parity::ops::adaln {

const gen::Family& family() {
  return shipped_op_family<AdaLN>(
      {.kernel = "parity's deterministic AdaLN kernel",
       .make_host = &make_op_subject<AdaLNHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = torch_subject("LibTorch's at::layer_norm(x) * (1 + scale) + shift on the CPU", &make_torch_cpu),
       .register_probes = &register_probes});
}

}  // namespace parity::ops::adaln
