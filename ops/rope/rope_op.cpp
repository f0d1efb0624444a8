// The rope op as parity ships it: its declaration (rope_op.hpp) with parity's kernel (the host twin and
// the CUDA factory, rope_kernel.cuh), LibTorch's reference and the mismatch probes below.
#include <cmath>

#include <parity/core/bf16.hpp>
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/rope/rope_kernel.cuh>
#include <parity/ops/rope/rope_op.hpp>

namespace parity::ops::rope {

// Mismatch probes of rope (HostProbes, framework/op_subject.hpp).
namespace {

// A kernel written for GPT-NeoX's half-split pairs only: interleaved inputs paired (j, j + P).
struct NeoxOnly : Standard {
  static bool interleaved(bool /*requested*/) { return false; }
};

// The sign of sin flipped on the second element of each pair: y2 = x2 c - x1 s (rotate_half's
// negation put on the wrong half).
struct SinSignFlipped : Standard {
  static float second(float x1, float x2, float c, float s, std::int64_t /*T*/) { return x2 * c - x1 * s; }
};

// A kernel written for whole-head rotation, given a partial one: heads taken 2P
// apart instead of 2P + Q, so every head after the first reads and writes the
// wrong dims, and the last heads' columns are never written (left zero).
struct HeadsPacked : Standard {
  static std::int64_t head_width(std::int64_t P, std::int64_t /*Q*/) { return 2 * P; }
};

// The tables cached in bf16 and widened before use, whatever their dtype.
struct Bf16Tables : Standard {
  static float table(float v) { return round_through_bf16(v); }
};

// From 128 tokens on, another plan rotates with fused multiply-adds: fma(x1, c, -(x2 s)). As
// accurate, other bits.
struct PlanByRows : Standard {
  static float first(float x1, float x2, float c, float s, std::int64_t T) {
    return T < 128 ? rotated_first(x1, x2, c, s) : std::fma(x1, c, -(x2 * s));
  }
  static float second(float x1, float x2, float c, float s, std::int64_t T) {
    return T < 128 ? rotated_second(x1, x2, c, s) : std::fma(x2, c, x1 * s);
  }
};

void register_probes() {
  const HostProbes<RopeHost> probes{"rope"};
  probes.add<NeoxOnly>("probe-neox-only", "interleaved (GPT-J) inputs rotated as half-split (NeoX) pairs");
  probes.add<SinSignFlipped>("probe-sin-sign-flipped",
                             "y2 = x2 cos - x1 sin: the sign of sin flipped on the second half");
  probes.add<HeadsPacked>("probe-heads-packed",
                          "partial rotation: heads strided 2P instead of 2P + Q, the pass-through dims dropped");
  probes.add<Bf16Tables>("probe-bf16-tables", "cos and sin rounded to bf16 before use");
  probes.add<PlanByRows>("probe-plan-by-rows", "from T >= 128 tokens, the rotation in fused multiply-adds");
}

}  // namespace

const gen::Family& family() {
  return shipped_op_family<Rope>(
      {.kernel = "parity's deterministic RoPE kernel",
       .make_host = &make_op_subject<RopeHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = PARITY_OP_TORCH(torch_subject("LibTorch's x * cos + rotate(x) * sin on the CPU", &make_torch_cpu)),
       .register_probes = &register_probes});
}

}  // namespace parity::ops::rope
