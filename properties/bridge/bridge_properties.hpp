#pragma once
// The bridge family's properties: check functions Case x subject -> Verdict, plain C++, shared
// by RapidCheck (properties/gen/bridge_runs), `parity check|probes|replay` and the record
// (bridge_record.hpp). Cases are materialised by bridge_problem.hpp; subjects are
// bridge_subjects.hpp's pairs (manual model, autograd path).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/case.hpp>
#include <parity/core/verdict.hpp>
#include <parity/properties/bridge/bridge_compare.hpp>
#include <parity/properties/bridge/bridge_problem.hpp>
#include <parity/properties/bridge/bridge_subjects.hpp>

namespace parity::properties::bridge {

// One run of a subject on a problem: the manual model (with the subject's deviation) by the
// oracle's manual backward, the true model by LibTorch autograd on the subject's path.
struct BridgeRun {
  oracles::TinyGptOutput manual, autograd;
  BridgeComparison comparison;
  std::vector<std::string> missing_nonzero;  // gradients that must be non-zero but are all 0
  std::string attention_grad_fn;             // the autograd node of LibTorch's attention output
  bool passed() const { return comparison.passed() && missing_nonzero.empty(); }
};

// Throws InputError when the subject cannot run here or the problem's tokens are refused.
BridgeRun run_bridge(const BridgeProblem& p, const BridgeSubject& s, const Tolerance& tol = {});

// The manual gradients that cannot vanish for this model on len tokens, so that an all-zero
// one is a degenerate run (docs/design.md, "Style" 9), not a pass: all 18, except
//   len == 1: Wq and Wk (softmax over a single key is constant 1, so dS = 0);
//   every GELU derivative at `gelu_inputs` exactly 0 (a saturated MLP: tanh(z) is -1 in
//   double for z below about -19): ln2_g, ln2_b, W1, b1, W2;
//   d == 1:   all but lnf_b, W_out, b_out (every LayerNorm output is its bias: xhat = 0);
//   vocab == 1: none (softmax = onehot, the loss is 0 whatever the parameters).
std::vector<std::string> required_nonzero_gradients(const oracles::TinyGptConfig& c, std::int64_t len,
                                                    const std::vector<double>& gelu_inputs);

// Inputs every path must refuse, for a model `c`: the reference bridge's four (empty, length
// mismatch, id == vocab, a boolean id), then ids longer than max_len, a negative id, a
// fractional id (1.5) and a target == vocab. Valid parts are taken mod vocab.
struct BadInput {
  std::string label;  // "empty", "length_mismatch", "id_out_of_range", "boolean_id", ...
  nlohmann::json ids, targets;
};
std::vector<BadInput> bad_inputs(const oracles::TinyGptConfig& c);

// What one path did with an input: refused it (InputError) with `message`, or computed.
struct PathOutcome {
  std::string path;  // "manual", "torch-explicit", "torch-sdpa"
  bool refused = false;
  std::string message;
};
// Runs the manual model (`manual`) and LibTorch (`model`) on both attention paths (sdpa where
// available) with ids / targets.
std::vector<PathOutcome> run_paths(const oracles::TinyGptConfig& manual, const oracles::TinyGptConfig& model,
                                   const oracles::TinyGptParams& params, const nlohmann::json& ids,
                                   const nlohmann::json& targets);
// Every path refused, each with one and the same message, which begins with
// oracles::kTokenRefusal.
bool refused_alike(const std::vector<PathOutcome>& outcomes);

struct BridgeProperty {
  std::string name;
  std::string description;  // the claim, one line
  Verdict (*check)(const Case&, const BridgeSubject&);
};

// matches_autograd: logits, loss and all 18 gradients of the subject's manual model within
// atol 1e-10 + rtol 1e-8 |autograd| of LibTorch autograd, and no required gradient all zero
// (required_nonzero_gradients). Metrics: max_abs_error (the worst tensor's),
// compared_gradient_elements, nonzero_manual_gradient_tensors.
Verdict check_matches_autograd(const Case& c, const BridgeSubject& s);
// refuses_bad_inputs: every path refuses every bad_inputs() entry alike, and accepts the
// case's own tokens (so refusing everything cannot pass).
Verdict check_refuses_bad_inputs(const Case& c, const BridgeSubject& s);
// finite_differences: the subject's manual gradients agree with the five-point central
// difference (8 (L(p+h) - L(p-h)) - (L(p+2h) - L(p-2h))) / 12h, h = 1e-5 max(1, |p|), of its
// own forward, within 1e-7 + 1e-5 |g|, on up to 24 elements per parameter: the manual
// backward is the derivative of the manual forward, whatever autograd says.
Verdict check_finite_differences(const Case& c, const BridgeSubject& s);

// For a probe subject, on every case where the probe changes the function it must be caught.
// Whether it changes the function is decided by the float64 oracle alone: the probe's manual
// model against the true manual model under the bridge tolerance (so a length-1 sequence,
// where the causal mask and the attention scale cannot matter, is discarded, as is d = 1 for
// the LayerNorm epsilon). Where it changes, its comparison with autograd must fail; the
// verdict holds when it does. Throws InputError for a subject that is not a probe.
Verdict check_probe_caught(const Case& c, const BridgeSubject& probe);

// matches_autograd, refuses_bad_inputs, finite_differences: every one takes a subject.
const std::vector<BridgeProperty>& bridge_properties();
// Throws InputError listing the known names.
const BridgeProperty& find_bridge_property(const std::string& name);

}  // namespace parity::properties::bridge
