#pragma once
// parity's deterministic RoPE kernel (ops/kernels/host_call.hpp). All float32, one rounding per
// operation, no contraction: y1 = (x1 * c) - (x2 * s), y2 = (x2 * c) + (x1 * s), each rounded once
// to the output dtype (bf16: round to nearest even). No element depends on another row. Declared
// arithmetic: the default (nothing beyond IEEE float32: no reduction, no elementary function).
#include <cstdint>
#include <memory>

#include <parity/core/hd.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/rope/rope_pairing.hpp>  // pair_first, pair_second

#if !defined(__CUDACC__)  // the host twins' own includes (host_call.hpp)
#include <parity/ops/kernels/host_call.hpp>
#include <parity/ops/rope/rope_op.hpp>
#endif

namespace parity::ops::rope {

PARITY_HD float rotated_first(float x1, float x2, float c, float s) { return x1 * c - x2 * s; }
PARITY_HD float rotated_second(float x1, float x2, float c, float s) { return x2 * c + x1 * s; }

#if !defined(__CUDACC__)  // the host twins (host_call.hpp)

// The host twin: the arithmetic above, in its documented order, on the CPU. `Policy` lets the
// mismatch probes (rope_op.cpp) be real alternative implementations of single steps; Standard is
// the kernel's own.
struct Standard {
  // The stride between heads in x and y: 2P + Q.
  static std::int64_t head_width(std::int64_t P, std::int64_t Q) { return 2 * P + Q; }
  // The pairing used for the requested one.
  static bool interleaved(bool requested) { return requested; }
  // A table entry as the rotation reads it.
  static float table(float v) { return v; }
  // The two rotated elements; T is the batch's row count.
  static float first(float x1, float x2, float c, float s, std::int64_t /*T*/) { return rotated_first(x1, x2, c, s); }
  static float second(float x1, float x2, float c, float s, std::int64_t /*T*/) { return rotated_second(x1, x2, c, s); }
};

template <class Policy>
class RopeHost : public kernels::HostTwin<Rope> {
 public:
  void rows(kernels::HostCall& c) const override {
    const std::int64_t T = c.extent("T"), H = c.extent("H"), P = c.extent("P"), Q = c.extent("Q");
    const std::int64_t D = Policy::head_width(P, Q), W = H * (2 * P + Q);
    const bool interleaved = Policy::interleaved(c.param("interleaved") != 0);
    const float *x = c.in("x").data(), *cos = c.in("cos").data(), *sin = c.in("sin").data();
    Tensor& y = c.out("y");  // x and y are [T, H, 2P+Q]
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t h = 0; h < H; ++h) {
        const std::int64_t head = t * W + h * D;
        for (std::int64_t j = 0; j < P; ++j) {
          const std::int64_t i1 = head + pair_first(j, P, interleaved), i2 = head + pair_second(j, P, interleaved);
          const float c = Policy::table(cos[t * P + j]), s = Policy::table(sin[t * P + j]);
          kernels::store(y, i1, Policy::first(x[i1], x[i2], c, s, T));
          kernels::store(y, i2, Policy::second(x[i1], x[i2], c, s, T));
        }
        for (std::int64_t q = 2 * P; q < 2 * P + Q; ++q) kernels::store(y, head + q, x[head + q]);
      }
  }
};

#endif  // !__CUDACC__

// A subject whose y equals the host twin's (RopeHost<Standard>) bit for bit for every input,
// layout and shape: one thread per rotated pair and per pass-through dim, every operation
// this file's. x, cos and sin may have any strides and offset; y is contiguous. Runs synchronously on the current
// device; throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();

}  // namespace parity::ops::rope
