// The rope op: its declaration (rope_op.hpp) with parity's kernels of it, LibTorch's and the mismatch probes
// (rope_subjects.hpp).
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/rope/rope_host.hpp>
#include <parity/ops/rope/rope_op.hpp>
#include <parity/ops/rope/rope_subjects.hpp>

namespace parity::ops::rope {

const gen::Family& family() {
  return shipped_op_family<Rope>(
      {.kernel = "parity's deterministic RoPE kernel",
       .make_host = &make_op_subject<RopeHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = torch_subject("LibTorch's x * cos + rotate(x) * sin on the CPU", &make_torch_cpu),
       .register_probes = &register_probes});
}

}  // namespace parity::ops::rope
