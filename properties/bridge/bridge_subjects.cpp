#include <parity/properties/bridge/bridge_subjects.hpp>

#include <parity/core/error.hpp>
#include <parity/core/find_named.hpp>

namespace parity::properties::bridge {
namespace {

using subjects::torch_impl::TinyGptAttention;

void no_causal_mask(oracles::TinyGptConfig& c) { c.causal = false; }
void unscaled_attention(oracles::TinyGptConfig& c) { c.attention_scale = 1.0; }
// 1e-3 is the LayerNorm epsilon of TensorFlow / Keras: a classic porting mismatch.
void wrong_ln_eps(oracles::TinyGptConfig& c) { c.ln_eps = 1e-3; }
void exact_gelu(oracles::TinyGptConfig& c) { c.gelu = oracles::Gelu::exact; }
void unbiased_ln_variance(oracles::TinyGptConfig& c) { c.ln_unbiased_variance = true; }

std::vector<BridgeSubject> build() {
  return {
      {"torch-autograd", BridgeRole::implementation,
       "manual float64 backward vs LibTorch autograd, explicit matmul-softmax-matmul attention", "explicit",
       TinyGptAttention::explicit_matmul, nullptr},
      {"torch-sdpa", BridgeRole::implementation,
       "manual float64 backward vs LibTorch autograd through scaled dot-product attention (math backend)", "sdpa",
       TinyGptAttention::sdpa, nullptr},
      {"probe-no-causal-mask", BridgeRole::probe, "manual model without the causal mask", "no_causal_mask",
       TinyGptAttention::explicit_matmul, &no_causal_mask},
      {"probe-unscaled-attention", BridgeRole::probe, "manual model with attention scale 1, not 1/sqrt(d_head)",
       "unscaled_attention", TinyGptAttention::explicit_matmul, &unscaled_attention},
      {"probe-wrong-ln-eps", BridgeRole::probe, "manual model with LayerNorm epsilon 1e-3, not 1e-5",
       "wrong_layernorm_epsilon", TinyGptAttention::explicit_matmul, &wrong_ln_eps},
      {"probe-exact-gelu", BridgeRole::probe, "manual model with the exact (erf) GELU, not the tanh form", "exact_gelu",
       TinyGptAttention::explicit_matmul, &exact_gelu},
      {"probe-unbiased-ln-variance", BridgeRole::probe,
       "manual model whose LayerNorm divides the variance by d - 1 (torch.var's default)",
       "unbiased_layernorm_variance", TinyGptAttention::explicit_matmul, &unbiased_ln_variance},
  };
}

}  // namespace

oracles::TinyGptConfig BridgeSubject::manual_config(const oracles::TinyGptConfig& model) const {
  oracles::TinyGptConfig c = model;
  if (deviate) deviate(c);
  return c;
}

std::string BridgeSubject::unavailable() const {
  if (path != TinyGptAttention::sdpa) return "";
  const auto sdpa = subjects::torch_impl::sdpa_support();
  return sdpa.available ? "" : sdpa.note;
}

const std::vector<BridgeSubject>& bridge_subjects() {
  static const std::vector<BridgeSubject> all = build();
  return all;
}

const BridgeSubject& find_bridge_subject(const std::string& name) {
  return find_named(bridge_subjects(), name, "bridge subject");
}

}  // namespace parity::properties::bridge
