#pragma once
// The model's parameters, drawn from a seed (Philox, so the same seed gives the same bits on
// every machine), by name. Names and shapes (D width, F ff_hidden, Dh head_dim):
//   proj_in.{weight [D,Cv], bias [D]}            audio_proj_in.{weight [D,Ca], bias [D]}
//   context_embedder.{weight [D,Ct] bf16, bias [D]}
//   refiner.<j>.{norm1, norm2} [D]               time.linear1.{weight [D,256], bias [D]}
//   <attn>.{wq, wk, wv, wo} [D,D], <attn>.{norm_q, norm_k} [Dh]
//   <ff>.{w1, w3} [F,D], <ff>.w2 [D,F]             time.linear2.{weight [D,D], bias [D]}
//   blocks.<i>.modulation.{video,text,audio}.{weight [6D,D], bias [6D]}
//   norm_out.modulation.{weight [2D,D], bias [2D]}
//   proj_out.{weight [Cv,D], bias [Cv]}          audio_proj_out.{weight [Ca,D], bias [Ca]}
// with <attn> = refiner.<j>.attn | blocks.<i>.attn and <ff> = refiner.<j>.ff | blocks.<i>.ff.
// Everything is float32 except context_embedder.weight (bfloat16).
#include <cstdint>
#include <map>
#include <string>

#include <parity/core/tensor.hpp>
#include <parity/families/model/model_config.hpp>

namespace parity::model {

class ModelWeights {
 public:
  static ModelWeights draw(const ModelConfig& config, std::uint64_t seed);
  // Throws InputError naming the parameter if there is none of that name.
  const Tensor& at(const std::string& name) const;
  const std::map<std::string, Tensor>& all() const { return params_; }

 private:
  std::map<std::string, Tensor> params_;
};

// RoPE tables for positions 0..T-1: cos, sin float32 [T, rope_dims/2], angle p * 10000^(-2i/R),
// evaluated in double on the host and rounded once, so every implementation shares them.
struct RopeTables {
  Tensor cos, sin;
  static RopeTables make(std::int64_t tokens, int rope_dims);
};

// The timestep embedder's frequency i of `half`: 10000^(-i/half) rounded to float32. Shared by
// LibTorch's embedder, its float64 twin and the timestep routine.
float timestep_frequency(std::int64_t i, std::int64_t half);

// sin and cos of `angle` (radians) from IEEE operations only (detmath), the same on every
// machine: the tables above and the timestep routine's features use it, never libm.
void sincos_deterministic(double angle, double* s, double* c);

}  // namespace parity::model
