#pragma once
// The tiny GPT of the float64 bridge (docs/math.md, "Tiny GPT"; docs/reference.md, "bridge"): its
// configuration, its parameters, their deterministic initialisation, the validation of the
// tokens it is given, and what a run returns. This is the model's definition, shared by every
// path that computes it: the manual float64 oracle (oracles/tiny_gpt.hpp) and LibTorch
// (subjects/torch/tiny_gpt_torch.hpp). It holds no arithmetic of either path, so a subject
// that includes it still never knows its oracle.
//
// The model: pre-LayerNorm, one decoder block, `heads` heads of d_head = d / heads, no
// attention biases, every weight matrix [out, in] as nn.Linear stores it:
//   x0 = tok_emb[ids] + pos_emb[0:T]
//   x1 = x0 + Attn(LN1(x0)) Wo^T        q = h Wq^T, k = h Wk^T, v = h Wv^T, split into heads;
//                                       P = softmax(scale q k^T, causal mask), O = P v
//   x2 = x1 + GELU(LN2(x1) W1^T + b1) W2^T + b2
//   logits = LNf(x2) W_out^T + b_out;   loss = mean over t of cross_entropy(logits_t, targets_t)
// LayerNorm: biased variance, y = (x - mean) / sqrt(var + eps) * g + b. GELU: the tanh form
// of llm.c's train_gpt2.c, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), which LibTorch
// computes as gelu(x, approximate="tanh").
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/tensor.hpp>  // shape_text

namespace parity::oracles {

enum class Gelu { tanh, exact };

struct TinyGptConfig {
  std::int64_t vocab = 9, d = 4, heads = 1, hidden = 7, max_len = 8;
  // Variants. The defaults are the model; each mismatch probe changes one of them, so a probe
  // is a real alternative model computed by the same code.
  bool causal = true;            // false: every position attends to every position
  double attention_scale = 0.0;  // 0: 1 / sqrt(d_head)
  double ln_eps = 1e-5;
  bool ln_unbiased_variance = false;  // true: variance over d - 1 (torch.var's default)
  Gelu gelu = Gelu::tanh;

  std::int64_t d_head() const { return d / heads; }
  // The attention scale in effect: attention_scale, or 1 / sqrt(d_head) when it is 0.
  double scale() const;

  friend bool operator==(const TinyGptConfig&, const TinyGptConfig&) = default;
};

// Throws InputError naming the field ("config.heads: 3 does not divide d = 4") unless every
// extent is >= 1 (and <= 4096), heads divides d, ln_eps > 0 and attention_scale >= 0.
void validate_config(const TinyGptConfig& c);
std::string gelu_name(Gelu g);  // "tanh" or "exact"

// One named parameter tensor, row-major.
struct Param {
  std::vector<std::int64_t> shape;
  std::vector<double> values;
  friend bool operator==(const Param&, const Param&) = default;
};

// The 18 parameter tensors (the reference bridge record names them in this order):
//   tok_emb [vocab, d], pos_emb [max_len, d], ln1_g, ln1_b [d], Wq, Wk, Wv, Wo [d, d],
//   ln2_g, ln2_b [d], W1 [hidden, d], b1 [hidden], W2 [d, hidden], b2 [d], lnf_g, lnf_b [d],
//   W_out [vocab, d], b_out [vocab].
struct TinyGptParams {
  Param tok_emb, pos_emb, ln1_g, ln1_b, Wq, Wk, Wv, Wo, ln2_g, ln2_b, W1, b1, W2, b2, lnf_g, lnf_b, W_out, b_out;
  friend bool operator==(const TinyGptParams&, const TinyGptParams&) = default;
};

struct ParamSlot {
  const char* name;
  Param TinyGptParams::*member;
};
inline constexpr std::size_t kTinyGptParamCount = 18;
// The parameters in the reference order, with their names.
const std::array<ParamSlot, kTinyGptParamCount>& tiny_gpt_param_slots();

// Every parameter at its shape for `c`, all zero.
TinyGptParams zero_params(const TinyGptConfig& c);
// Deterministic parameters: element i of the parameter in slot s is drawn from
// philox_normal(seed, s + 1, i) (core/random_fill.hpp), the same on every machine.
// Matrices and embeddings are init_std * N(0, 1); LayerNorm gains 1 + init_std * N(0, 1) and
// every bias init_std * N(0, 1): no parameter sits at 0 or 1, where a missing term (a bias
// left out, a gain ignored) would go unseen.
TinyGptParams init_params(const TinyGptConfig& c, std::uint64_t seed, double init_std);
// Throws InputError naming the parameter ("params.W1: shape [7, 3], expected [7, 4]").
void validate_params(const TinyGptConfig& c, const TinyGptParams& p);
std::int64_t param_elements(const TinyGptParams& p);

// The one refusal of every path for tokens it cannot compute on (the reference bridge record's text);
// validate_tokens appends what was wrong, naming the field.
inline constexpr const char* kTokenRefusal =
    "require nonempty in-range integer IDs, matching targets and available positions";

// Validated tokens: 1 <= T <= max_len ids and as many targets, each in [0, vocab).
struct Tokens {
  std::vector<std::int64_t> ids, targets;
};

// Token lists come as JSON values so that what a caller may hand over (a boolean, a
// fraction, a string, a nested list) can be refused rather than coerced. Throws InputError
// "<kTokenRefusal>: ids[1]: 9 is outside [0, 9)" (or "ids: empty", "targets: 1 value for 2
// ids", "ids: 9 tokens for max_len 8", "ids[0]: true is a boolean, not an integer id", ...)
// unless both are arrays of integers in [0, vocab) of one length in [1, max_len].
Tokens validate_tokens(const nlohmann::json& ids, const nlohmann::json& targets, const TinyGptConfig& c);

// What a run of the model gives: logits [T, vocab] row-major, the mean loss, and (after a
// backward) d loss / d parameter for every parameter, at the parameter's shape.
struct TinyGptOutput {
  std::vector<double> logits;
  double loss = 0.0;
  TinyGptParams grads;
};

}  // namespace parity::oracles
