// The sdpa and sdpa_backward ops: their declarations (sdpa_op.hpp, sdpa_backward_op.hpp) with parity's kernels of
// them, LibTorch's and the mismatch probes (sdpa_subjects.hpp).
#include <string>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/sdpa/sdpa_backward_host.hpp>
#include <parity/ops/sdpa/sdpa_backward_op.hpp>
#include <parity/ops/sdpa/sdpa_host.hpp>
#include <parity/ops/sdpa/sdpa_op.hpp>
#include <parity/ops/sdpa/sdpa_subjects.hpp>

namespace parity::ops::sdpa {

const gen::Family& family() {
  return shipped_op_family<Sdpa>(
      {.kernel = "parity's deterministic attention forward kernel",
       .make_host = &make_op_subject<SdpaHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = torch_subject("LibTorch's attention forward on the CPU (" + torch_kernel() + ")", &make_torch_cpu),
       .register_probes = &register_probes});
}

const gen::Family& backward_family() {
  return shipped_op_family<SdpaBackward>(
      {.kernel = "parity's deterministic attention backward kernel",
       .make_host = &make_op_subject<SdpaBackwardHost<BackwardStandard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_backward_kernel),
       .torch =
           torch_subject("LibTorch's attention backward on the CPU (" + torch_kernel() + ")", &make_torch_cpu_backward),
       .register_probes = &register_backward_probes});
}

}  // namespace parity::ops::sdpa
