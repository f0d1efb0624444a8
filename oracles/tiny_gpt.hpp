#pragma once
// The tiny GPT in float64 with an explicit forward and a manual backward for every parameter
// (oracles/tiny_gpt_model.hpp defines the model; oracles/tiny_gpt_layers.hpp the layers):
// the "manual" side of the float64 bridge. Pure functions: no I/O, no state.
//
// It is written for double only, not as a template over the real type (docs/design.md, "Style" 4): the
// bridge's claim is that float64 manual gradients equal float64 autograd to 1e-10 / 1e-8, and
// its independent check of the backward is by central differences of this same forward
// (properties/bridge), so no wider type is needed.
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/oracles/tiny_gpt_model.hpp>

namespace parity::oracles {

// Logits and loss; output.grads stays empty. Throws InputError for an invalid config, params
// that do not fit it (validate_params) or tokens validate_tokens refuses, before computing
// anything.
TinyGptOutput tiny_gpt_forward(const TinyGptConfig& c, const TinyGptParams& p, const nlohmann::json& ids,
                               const nlohmann::json& targets);

// Logits, loss, and d loss / d parameter for all 18 parameters by the manual backward
// (docs/math.md, "Tiny GPT"). The same refusals as tiny_gpt_forward.
TinyGptOutput tiny_gpt_forward_backward(const TinyGptConfig& c, const TinyGptParams& p, const nlohmann::json& ids,
                                        const nlohmann::json& targets);

// The MLP's GELU inputs u = LN2(x1) W1^T + b1, [T, hidden] row-major, of the forward: what a
// caller needs to tell a saturated MLP (every GELU derivative exactly 0, as the tanh form gives
// for u below about -7.3) from a backward that lost its gradients. The same refusals.
std::vector<double> tiny_gpt_gelu_inputs(const TinyGptConfig& c, const TinyGptParams& p, const nlohmann::json& ids,
                                         const nlohmann::json& targets);

}  // namespace parity::oracles
