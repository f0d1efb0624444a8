#pragma once
// The host twin of the LoRA kernel: the exact arithmetic of lora_arith.cuh, in the orders it
// documents, on the CPU. `Arithmetic` is a policy (CUTLASS style) that parity's mismatch
// probes replace to build real alternative implementations; StandardArithmetic is the
// kernel's own. Every product runs through fma_chain.hpp: vectorised across outputs, each
// output one chain in its documented order, so the bits are those of the per-element
// definition whatever the instruction set or thread count.
#include <cstdint>
#include <memory>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/isa.hpp>
#include <parity/subjects/builtin/fma_chain.hpp>
#include <parity/subjects/builtin/lora_arith.cuh>
#include <parity/subjects/lora_family.hpp>

namespace parity::subjects::builtin {

struct StandardArithmetic {
  static float mac(float acc, float a, float b) { return lora::mac(acc, a, b); }
  static std::uint16_t round_output(float v) { return bf16_from_float_rne(v); }
  static float effective_scale(float s) { return s; }
  // Whether the forward base reduction is split in two halves for this many rows and this
  // reduction depth K.
  static bool split_base_reduction(std::int64_t /*rows*/, std::int64_t /*K*/) { return false; }
};

// Whether a policy keeps the kernel's multiply-add (then the vector kernels run its chains;
// otherwise mac_chains, the scalar kernel, runs them with the policy's own mac).
template <class Arithmetic>
inline constexpr bool kKeepsKernelMac = &Arithmetic::mac == &StandardArithmetic::mac;

template <class Arithmetic>
class LoraHostTwin : public LoraSubject {
 public:
  // `isa`: the vector kernels to use (at most best_isa(); a lower one gives the same bits).
  explicit LoraHostTwin(Isa isa = best_isa()) : isa_(isa) {}
  Tensor forward(const LoraInputs& in) override;
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override;
  LoraPath last_path() const override { return {last_split_ ? "host-split-k" : "host-fma-chain"}; }

 protected:
  // fma_chains (or mac_chains with the policy's mac): c[i][j] (row stride ldc) continues over
  // the rows p of b with a[i][p] (row stride lda).
  void chains(std::int64_t M, const float* a, std::int64_t lda, const MatrixView& b, float* c, std::int64_t ldc) const;
  // h[t][j] = sum_k x[t][k] A[j][k], float32, T x r, from x's float32 copy, into h (zeroed).
  const float* low_rank_activations(const float* x, const LoraInputs& in, float* h) const;
  Isa isa_;
  bool last_split_ = false;
};

std::unique_ptr<LoraSubject> make_lora_host_twin();

}  // namespace parity::subjects::builtin

#include <parity/subjects/builtin/lora_host_impl.hpp>
