// The rms_norm and rms_norm_backward ops: their declarations (rms_norm_op.hpp, rms_norm_backward_op.hpp) with parity's
// kernels of them, LibTorch's and the mismatch probes (rms_norm_subjects.hpp).
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/rms_norm/rms_norm_backward_host.hpp>
#include <parity/ops/rms_norm/rms_norm_backward_op.hpp>
#include <parity/ops/rms_norm/rms_norm_host.hpp>
#include <parity/ops/rms_norm/rms_norm_op.hpp>
#include <parity/ops/rms_norm/rms_norm_subjects.hpp>
#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::ops::rms_norm {

const gen::Family& family() {
  return shipped_op_family<RmsNorm>(
      {.kernel = "parity's deterministic RMSNorm kernel",
       .make_host = &make_op_subject<RmsNormHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = torch_op_reference(
           RmsNorm::declaration(),
           {.schema = "aten::rms_norm", .args = {{"x", "input"}, {"w", "weight"}, {"normalized_shape", "[D]"}}},
           "LibTorch's aten::rms_norm on the CPU, by schema name"),
       .register_probes = &register_probes});
}

const gen::Family& backward_family() {
  return shipped_op_family<RmsNormBackward>(
      {.kernel = "parity's deterministic RMSNorm backward kernel",
       .make_host = &make_op_subject<RmsNormBackwardHost<BackwardStandard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_backward_kernel),
       .torch = torch_subject("LibTorch's autograd through at::rms_norm on the CPU", &make_torch_cpu_backward,
                              &torch_unavailable_reason),
       .register_probes = &register_backward_probes});
}

}  // namespace parity::ops::rms_norm
