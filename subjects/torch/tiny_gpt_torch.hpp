#pragma once
// The bridge's tiny GPT (oracles/tiny_gpt_model.hpp) run by LibTorch: float64 on the CPU,
// every gradient by autograd. Plain header: callers need no LibTorch include. The model's
// definition (config, parameters, token validation) is shared with the float64 oracle through
// tiny_gpt_model.hpp; this subject never calls the oracle's arithmetic.
#include <string>

#include <nlohmann/json.hpp>

#include <parity/oracles/tiny_gpt_model.hpp>

namespace parity::subjects::torch_impl {

enum class TinyGptAttention {
  explicit_matmul,  // matmul, mul by the scale, masked_fill(-inf), softmax, matmul
  sdpa,             // LibTorch's fused scaled dot-product attention entry point
};

// What LibTorch offers for scaled dot-product attention, decided from its headers at build time.
struct SdpaSupport {
  bool available = false;
  std::string function;    // the ATen function the sdpa path calls, or ""
  std::string backend;     // the backend it runs for float64 CPU inputs that require grad
  std::string public_api;  // whether at::scaled_dot_product_attention (PyTorch >= 2.0) exists
  std::string note;        // anything else the record must say; the reason when unavailable
};
SdpaSupport sdpa_support();

// Logits, loss and every parameter gradient (output.grads) of the model by LibTorch autograd:
// at::embedding, layer_norm, linear, gelu(approximate "tanh" or "none"), cross_entropy_loss
// (mean), and attention by `path`. Validates params and tokens first, with the very
// validate_params / validate_tokens of the model definition, so a refused input is refused
// here with the same InputError before any LibTorch call. Also throws InputError for the sdpa
// path when sdpa_support() is unavailable, and for config.ln_unbiased_variance (LibTorch's
// layer_norm has no such form). The sdpa path of LibTorch 1.13 takes no scale: a non-default
// config.scale() is applied by multiplying q by scale * sqrt(d_head) first. When
// `attention_grad_fn` is given it receives the name of the autograd node that produced the
// attention output (evidence of which implementation ran, e.g. "UnsafeViewBackward0" for a
// composite of matmul and softmax).
oracles::TinyGptOutput tiny_gpt_torch(const oracles::TinyGptConfig& c, const oracles::TinyGptParams& p,
                                      const nlohmann::json& ids, const nlohmann::json& targets, TinyGptAttention path,
                                      std::string* attention_grad_fn = nullptr);

}  // namespace parity::subjects::torch_impl
