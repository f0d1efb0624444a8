#pragma once
// The host twin of the LoRA kernel: the exact arithmetic of lora_arith.cuh, in the orders it
// documents, on the CPU. `Arithmetic` is a policy (CUTLASS style) that parity's mismatch
// probes replace to build real alternative implementations; StandardArithmetic is the
// kernel's own.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/bf16.hpp"
#include "subjects/lora_family.hpp"
#include "subjects/rlkernels/lora_arith.cuh"

namespace parity::subjects::rlkernels {

struct StandardArithmetic {
  static float mac(float acc, float a, float b) { return lora::mac(acc, a, b); }
  static std::uint16_t round_output(float v) { return bf16_from_float_rne(v); }
  static float effective_scale(float s) { return s; }
  // Whether the forward base reduction is split in two halves for this many rows and this
  // reduction depth K.
  static bool split_base_reduction(std::int64_t /*rows*/, std::int64_t /*K*/) { return false; }
};

// Float32 copies of the operands, unpacked from their layouts (exact conversions only).
struct LoraPacked {
  std::int64_t T = 0, N = 0, K = 0, r = 0;
  std::vector<float> x;    // [T][K]
  std::vector<float> Wt;   // [K][N]
  std::vector<float> W;    // [N][K]
  std::vector<float> A;    // [r][K]
  std::vector<float> B;    // [N][r]
  std::vector<float> Bt;   // [r][N]
  static LoraPacked from(const LoraInputs& in);
};

// Row-major float32 values of a 2-D tensor of any dtype and strides.
std::vector<float> unpack_f32(const Tensor& t);

template <class Arithmetic>
class LoraHostTwin : public LoraSubject {
 public:
  Tensor forward(const LoraInputs& in) override;
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override;
  LoraPath last_path() const override { return {last_split_ ? "host-split-k" : "host-fma-chain"}; }

 protected:
  // h[t][j], float32, T x r.
  static std::vector<float> low_rank_activations(const LoraPacked& p);
  bool last_split_ = false;
};

std::unique_ptr<LoraSubject> make_lora_host_twin();

}  // namespace parity::subjects::rlkernels

#include "subjects/rlkernels/lora_host_impl.hpp"
