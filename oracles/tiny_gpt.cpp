#include <parity/oracles/tiny_gpt.hpp>

#include <parity/oracles/tiny_gpt_layers.hpp>

namespace parity::oracles {
namespace {

using namespace tiny_gpt;
using Vec = std::vector<double>;

Vec zeros(std::int64_t n) { return Vec(static_cast<std::size_t>(n), 0.0); }

// Every intermediate the backward needs.
struct Activations {
  std::int64_t T = 0;
  Vec x0, h1, q, k, v, O, P, x1, h2, u, act, x2, hf, logits, dlogits;
  LayerNormCache ln1, ln2, lnf;
  double loss = 0.0;
};

Activations forward_pass(const TinyGptConfig& c, const TinyGptParams& p, const Tokens& tok) {
  Activations a;
  const std::int64_t T = a.T = static_cast<std::int64_t>(tok.ids.size());
  const std::int64_t d = c.d, H = c.hidden, V = c.vocab;
  a.x0 = zeros(T * d);
  for (std::int64_t t = 0; t < T; ++t)
    for (std::int64_t i = 0; i < d; ++i)
      a.x0[t * d + i] = p.tok_emb.values[tok.ids[t] * d + i] + p.pos_emb.values[t * d + i];

  a.h1 = zeros(T * d);
  a.ln1 = layer_norm_forward(a.x0, p.ln1_g.values, p.ln1_b.values, T, d, c.ln_eps, c.ln_unbiased_variance, a.h1);
  a.q = zeros(T * d);
  a.k = zeros(T * d);
  a.v = zeros(T * d);
  linear_forward(a.h1, p.Wq.values, {}, T, d, d, a.q);
  linear_forward(a.h1, p.Wk.values, {}, T, d, d, a.k);
  linear_forward(a.h1, p.Wv.values, {}, T, d, d, a.v);
  a.O = zeros(T * d);
  a.P = zeros(c.heads * T * T);
  attention_forward(a.q, a.k, a.v, T, d, c.heads, c.scale(), c.causal, a.O, a.P);
  a.x1 = zeros(T * d);
  linear_forward(a.O, p.Wo.values, {}, T, d, d, a.x1);
  for (std::int64_t i = 0; i < T * d; ++i) a.x1[i] += a.x0[i];

  a.h2 = zeros(T * d);
  a.ln2 = layer_norm_forward(a.x1, p.ln2_g.values, p.ln2_b.values, T, d, c.ln_eps, c.ln_unbiased_variance, a.h2);
  a.u = zeros(T * H);
  a.act = zeros(T * H);
  linear_forward(a.h2, p.W1.values, p.b1.values, T, d, H, a.u);
  gelu_forward(a.u, c.gelu, a.act);
  a.x2 = zeros(T * d);
  linear_forward(a.act, p.W2.values, p.b2.values, T, H, d, a.x2);
  for (std::int64_t i = 0; i < T * d; ++i) a.x2[i] += a.x1[i];

  a.hf = zeros(T * d);
  a.lnf = layer_norm_forward(a.x2, p.lnf_g.values, p.lnf_b.values, T, d, c.ln_eps, c.ln_unbiased_variance, a.hf);
  a.logits = zeros(T * V);
  linear_forward(a.hf, p.W_out.values, p.b_out.values, T, d, V, a.logits);
  a.dlogits = zeros(T * V);
  a.loss = cross_entropy(a.logits, tok.targets, T, V, a.dlogits);
  return a;
}

TinyGptParams backward_pass(const TinyGptConfig& c, const TinyGptParams& p, const Tokens& tok, const Activations& a) {
  TinyGptParams g = zero_params(c);
  const std::int64_t T = a.T, d = c.d, H = c.hidden, V = c.vocab;
  const bool ub = c.ln_unbiased_variance;

  Vec dhf = zeros(T * d), dx2 = zeros(T * d);
  linear_backward(a.dlogits, a.hf, p.W_out.values, T, d, V, dhf, g.W_out.values, g.b_out.values);
  layer_norm_backward(dhf, a.lnf, p.lnf_g.values, T, d, ub, dx2, g.lnf_g.values, g.lnf_b.values);

  // x2 = x1 + MLP(LN2(x1)): the residual passes dx2 through unchanged.
  Vec dact = zeros(T * H), du = zeros(T * H), dh2 = zeros(T * d), dx1 = zeros(T * d);
  linear_backward(dx2, a.act, p.W2.values, T, H, d, dact, g.W2.values, g.b2.values);
  gelu_backward(a.u, dact, c.gelu, du);
  linear_backward(du, a.h2, p.W1.values, T, d, H, dh2, g.W1.values, g.b1.values);
  layer_norm_backward(dh2, a.ln2, p.ln2_g.values, T, d, ub, dx1, g.ln2_g.values, g.ln2_b.values);
  for (std::int64_t i = 0; i < T * d; ++i) dx1[i] += dx2[i];

  // x1 = x0 + Attn(LN1(x0)) Wo^T.
  Vec dO = zeros(T * d), dq = zeros(T * d), dk = zeros(T * d), dv = zeros(T * d);
  linear_backward(dx1, a.O, p.Wo.values, T, d, d, dO, g.Wo.values, {});
  attention_backward(dO, a.q, a.k, a.v, a.P, T, d, c.heads, c.scale(), dq, dk, dv);
  Vec dh1 = zeros(T * d), part = zeros(T * d);
  linear_backward(dq, a.h1, p.Wq.values, T, d, d, part, g.Wq.values, {});
  for (std::int64_t i = 0; i < T * d; ++i) dh1[i] += part[i];
  linear_backward(dk, a.h1, p.Wk.values, T, d, d, part, g.Wk.values, {});
  for (std::int64_t i = 0; i < T * d; ++i) dh1[i] += part[i];
  linear_backward(dv, a.h1, p.Wv.values, T, d, d, part, g.Wv.values, {});
  for (std::int64_t i = 0; i < T * d; ++i) dh1[i] += part[i];
  Vec dx0 = zeros(T * d);
  layer_norm_backward(dh1, a.ln1, p.ln1_g.values, T, d, ub, dx0, g.ln1_g.values, g.ln1_b.values);
  for (std::int64_t i = 0; i < T * d; ++i) dx0[i] += dx1[i];

  // x0 = tok_emb[ids] + pos_emb[0:T]: a repeated id accumulates.
  for (std::int64_t t = 0; t < T; ++t)
    for (std::int64_t i = 0; i < d; ++i) {
      g.tok_emb.values[tok.ids[t] * d + i] += dx0[t * d + i];
      g.pos_emb.values[t * d + i] += dx0[t * d + i];
    }
  return g;
}

Tokens checked(const TinyGptConfig& c, const TinyGptParams& p, const nlohmann::json& ids,
               const nlohmann::json& targets) {
  validate_params(c, p);
  return validate_tokens(ids, targets, c);
}

}  // namespace

TinyGptOutput tiny_gpt_forward(const TinyGptConfig& c, const TinyGptParams& p, const nlohmann::json& ids,
                               const nlohmann::json& targets) {
  const Tokens tok = checked(c, p, ids, targets);
  Activations a = forward_pass(c, p, tok);
  TinyGptOutput out;
  out.logits = std::move(a.logits);
  out.loss = a.loss;
  return out;
}

TinyGptOutput tiny_gpt_forward_backward(const TinyGptConfig& c, const TinyGptParams& p, const nlohmann::json& ids,
                                        const nlohmann::json& targets) {
  const Tokens tok = checked(c, p, ids, targets);
  const Activations a = forward_pass(c, p, tok);
  TinyGptOutput out;
  out.grads = backward_pass(c, p, tok, a);
  out.logits = a.logits;
  out.loss = a.loss;
  return out;
}

std::vector<double> tiny_gpt_gelu_inputs(const TinyGptConfig& c, const TinyGptParams& p, const nlohmann::json& ids,
                                         const nlohmann::json& targets) {
  return forward_pass(c, p, checked(c, p, ids, targets)).u;
}

}  // namespace parity::oracles
