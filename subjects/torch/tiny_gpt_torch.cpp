#include <parity/subjects/torch/tiny_gpt_torch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include <ATen/core/Tensor.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/cross_entropy_loss.h>
#include <ATen/ops/embedding.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/layer_norm.h>
#include <ATen/ops/linear.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/softmax.h>
#include <torch/csrc/autograd/function.h>
#include <torch/version.h>

// LibTorch >= 2.0 has the public at::scaled_dot_product_attention, with a backend selector
// (at::globalContext().setSDPUse*) and at::_fused_sdp_choice, which says what the selector
// picks; this path uses it whenever its header exists, whatever else is there. 1.13 (Debian's)
// has only the prototype at::_scaled_dot_product_attention, whose composite implementation
// runs _scaled_dot_product_attention_math whenever an input requires grad.
#if __has_include(<ATen/ops/scaled_dot_product_attention.h>)
#include <ATen/Context.h>
#include <ATen/SDPBackend.h>
#include <ATen/ops/_fused_sdp_choice.h>
#include <ATen/ops/scaled_dot_product_attention.h>
#define PARITY_SDPA_PUBLIC 1
#define PARITY_SDPA_PROTOTYPE 0
#elif __has_include(<ATen/ops/_scaled_dot_product_attention.h>)
#include <ATen/ops/_scaled_dot_product_attention.h>
#define PARITY_SDPA_PUBLIC 0
#define PARITY_SDPA_PROTOTYPE 1
#else
#define PARITY_SDPA_PUBLIC 0
#define PARITY_SDPA_PROTOTYPE 0
#endif
#if PARITY_SDPA_PUBLIC && TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 1
#error "parity's torch-sdpa path needs LibTorch 2.1 or later (the scale argument), or 1.13's prototype"
#endif
// The cuDNN and "overrideable" backends, and their switches, exist from LibTorch 2.5 on.
#define PARITY_SDPA_MORE_BACKENDS (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 5))

#include <parity/core/error.hpp>

namespace parity::subjects::torch_impl {
namespace {

using oracles::Param;
using oracles::TinyGptConfig;
using oracles::TinyGptParams;

std::string torch_version() {
  return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH);
}

at::Tensor leaf(const Param& p) {
  at::Tensor t = at::empty(p.shape, at::TensorOptions().dtype(at::kDouble));
  if (!p.values.empty()) std::memcpy(t.data_ptr<double>(), p.values.data(), p.values.size() * sizeof(double));
  return t.requires_grad_();
}

at::Tensor long_tensor(const std::vector<std::int64_t>& v) {
  at::Tensor t = at::empty({static_cast<std::int64_t>(v.size())}, at::TensorOptions().dtype(at::kLong));
  std::memcpy(t.data_ptr<std::int64_t>(), v.data(), v.size() * sizeof(std::int64_t));
  return t;
}

std::vector<double> values(const at::Tensor& t) {
  const at::Tensor c = t.detach().contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

#if PARITY_SDPA_PUBLIC
// While alive, LibTorch's SDPA selector may pick the MATH backend alone (flash, memory-efficient,
// cuDNN and overrideable off); the switches are restored on destruction. The switches are
// process-wide: parity calls LibTorch's SDPA from one thread at a time.
class MathSdpOnly {
 public:
  MathSdpOnly() {
    at::Context& ctx = at::globalContext();
    ctx.setSDPUseFlash(false);
    ctx.setSDPUseMemEfficient(false);
#if PARITY_SDPA_MORE_BACKENDS
    ctx.setSDPUseCuDNN(false);
    ctx.setSDPUseOverrideable(false);
#endif
    ctx.setSDPUseMath(true);
  }
  ~MathSdpOnly() {
    at::Context& ctx = at::globalContext();
    ctx.setSDPUseFlash(flash_);
    ctx.setSDPUseMemEfficient(mem_efficient_);
#if PARITY_SDPA_MORE_BACKENDS
    ctx.setSDPUseCuDNN(cudnn_);
    ctx.setSDPUseOverrideable(overrideable_);
#endif
    ctx.setSDPUseMath(math_);
  }
  MathSdpOnly(const MathSdpOnly&) = delete;
  MathSdpOnly& operator=(const MathSdpOnly&) = delete;

 private:
  const bool flash_ = at::globalContext().userEnabledFlashSDP();
  const bool mem_efficient_ = at::globalContext().userEnabledMemEfficientSDP();
#if PARITY_SDPA_MORE_BACKENDS
  const bool cudnn_ = at::globalContext().userEnabledCuDNNSDP();
  const bool overrideable_ = at::globalContext().userEnabledOverrideableSDP();
#endif
  const bool math_ = at::globalContext().userEnabledMathSDP();
};
#endif

// q, k, v [heads, T, d_head] -> attention output [heads, T, d_head].
at::Tensor attention(const TinyGptConfig& c, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                     TinyGptAttention path) {
  const std::int64_t T = q.size(1);
  if (path == TinyGptAttention::explicit_matmul) {
    at::Tensor s = at::matmul(q, k.transpose(-2, -1)).mul(c.scale());
    if (c.causal) {
      const at::Tensor future = at::ones({T, T}, at::TensorOptions().dtype(at::kBool)).triu(1);
      s = s.masked_fill(future, -std::numeric_limits<double>::infinity());
    }
    return at::matmul(at::softmax(s, -1), v);
  }
#if PARITY_SDPA_PUBLIC
  (void)T;
  const MathSdpOnly math_only;
  const std::int64_t chosen = at::_fused_sdp_choice(q, k, v, {}, 0.0, c.causal, c.scale());
  if (chosen != static_cast<std::int64_t>(at::SDPBackend::math))
    throw std::logic_error("tiny GPT torch-sdpa: LibTorch " + torch_version() + " chose SDPA backend " +
                           std::to_string(chosen) + " with only MATH enabled");
  return at::scaled_dot_product_attention(q, k, v, {}, 0.0, c.causal, c.scale());
#elif PARITY_SDPA_PROTOTYPE
  // The prototype always scales by 1 / sqrt(d_head); another scale goes into q first.
  (void)T;
  const double default_scale = 1.0 / std::sqrt(static_cast<double>(c.d_head()));
  const at::Tensor qs = c.scale() == default_scale ? q : q.mul(c.scale() / default_scale);
  return std::get<0>(at::_scaled_dot_product_attention(qs, k, v, {}, 0.0, false, c.causal));
#else
  (void)T;
  throw InputError("tiny GPT torch-sdpa: " + sdpa_support().note);
#endif
}

}  // namespace

SdpaSupport sdpa_support() {
  SdpaSupport s;
  s.public_api = PARITY_SDPA_PUBLIC ? "at::scaled_dot_product_attention is present"
                                    : "at::scaled_dot_product_attention is absent from LibTorch " + torch_version() +
                                          " (ATen/ops/scaled_dot_product_attention.h; public since PyTorch 2.0)";
#if PARITY_SDPA_PUBLIC
  s.available = true;
  s.function = "at::scaled_dot_product_attention";
  s.backend = "MATH";
  s.note = "LibTorch " + torch_version() +
           "'s public entry point with the MATH backend alone enabled for the call (flash, memory-efficient, "
           "cuDNN and overrideable off, then restored); at::_fused_sdp_choice confirms MATH before each call";
#elif PARITY_SDPA_PROTOTYPE
  s.available = true;
  s.function = "at::_scaled_dot_product_attention";
  s.backend = "MATH";
  s.note = "LibTorch " + torch_version() +
           "'s prototype entry point: no scale argument (1/sqrt(d_head) is built in), no backend "
           "selector; with inputs that require grad it runs _scaled_dot_product_attention_math, the "
           "composite MATH path (its output's autograd node is a matmul view, not a fused kernel's)";
#else
  s.note = "LibTorch " + torch_version() +
           " has no scaled dot-product attention (neither the 1.13 prototype "
           "at::_scaled_dot_product_attention nor the public at::scaled_dot_product_attention of 2.x)";
#endif
  return s;
}

oracles::TinyGptOutput tiny_gpt_torch(const TinyGptConfig& c, const TinyGptParams& p, const nlohmann::json& ids,
                                      const nlohmann::json& targets, TinyGptAttention path,
                                      std::string* attention_grad_fn) {
  oracles::validate_params(c, p);
  const oracles::Tokens tok = oracles::validate_tokens(ids, targets, c);
  if (c.ln_unbiased_variance)
    throw InputError("config.ln_unbiased_variance: LibTorch's layer_norm has no unbiased-variance form");
  if (path == TinyGptAttention::sdpa && !sdpa_support().available)
    throw InputError("tiny GPT torch-sdpa: " + sdpa_support().note);

  at::AutoGradMode grad_mode(true);  // the caller's grad mode must not change the result
  const auto& slots = oracles::tiny_gpt_param_slots();
  std::vector<at::Tensor> leaves;
  for (const auto& slot : slots) leaves.push_back(leaf(p.*slot.member));
  auto P = [&](const char* name) -> const at::Tensor& {
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (std::strcmp(slots[i].name, name) == 0) return leaves[i];
    throw InputError(std::string("tiny GPT torch: no parameter ") + name);
  };

  const std::int64_t T = static_cast<std::int64_t>(tok.ids.size());
  const std::int64_t d = c.d, H = c.heads, dh = c.d_head();
  const std::vector<std::int64_t> norm_shape = {d};
  const at::Tensor x0 = at::embedding(P("tok_emb"), long_tensor(tok.ids)).add(P("pos_emb").narrow(0, 0, T));

  const at::Tensor h1 = at::layer_norm(x0, norm_shape, P("ln1_g"), P("ln1_b"), c.ln_eps);
  auto heads = [&](const at::Tensor& x) { return x.view({T, H, dh}).transpose(0, 1); };  // [H, T, dh]
  const at::Tensor q = heads(at::linear(h1, P("Wq"))), k = heads(at::linear(h1, P("Wk"))),
                   v = heads(at::linear(h1, P("Wv")));
  const at::Tensor o = attention(c, q, k, v, path);
  if (attention_grad_fn) *attention_grad_fn = o.grad_fn() ? o.grad_fn()->name() : "none";
  const at::Tensor x1 = x0.add(at::linear(o.transpose(0, 1).reshape({T, d}), P("Wo")));

  const at::Tensor h2 = at::layer_norm(x1, norm_shape, P("ln2_g"), P("ln2_b"), c.ln_eps);
  const char* approximate = c.gelu == oracles::Gelu::tanh ? "tanh" : "none";
  const at::Tensor m = at::linear(at::gelu(at::linear(h2, P("W1"), P("b1")), approximate), P("W2"), P("b2"));
  const at::Tensor x2 = x1.add(m);

  const at::Tensor hf = at::layer_norm(x2, norm_shape, P("lnf_g"), P("lnf_b"), c.ln_eps);
  const at::Tensor logits = at::linear(hf, P("W_out"), P("b_out"));
  const at::Tensor loss = at::cross_entropy_loss(logits, long_tensor(tok.targets));
  loss.backward();

  oracles::TinyGptOutput out;
  out.logits = values(logits);
  out.loss = loss.item<double>();
  out.grads = oracles::zero_params(c);
  for (std::size_t i = 0; i < slots.size(); ++i)
    if (leaves[i].grad().defined()) (out.grads.*slots[i].member).values = values(leaves[i].grad());
  return out;
}

}  // namespace parity::subjects::torch_impl
