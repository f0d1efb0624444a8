#pragma once
// The bridge family's subjects. A bridge subject is a pair: the manual float64 model
// (oracles/tiny_gpt.hpp), possibly with one deliberate deviation, and the LibTorch autograd
// path it is checked against (subjects/torch/tiny_gpt_torch.hpp), which always runs the true
// model. The subject under test is the manual backward; autograd is the reference:
//   torch-autograd   the manual model against autograd through explicit attention
//   torch-sdpa       the manual model against autograd through LibTorch's SDPA
//   probe-*          the manual model with one deviation against explicit attention: each
//                    must be caught (the reference bridge's mismatch probes, and two more)
#include <string>
#include <vector>

#include <parity/oracles/tiny_gpt_model.hpp>
#include <parity/subjects/torch/tiny_gpt_torch.hpp>

namespace parity::properties::bridge {

enum class BridgeRole { implementation, probe };

struct BridgeSubject {
  std::string name;  // "torch-autograd", "probe-no-causal-mask", ...
  BridgeRole role = BridgeRole::implementation;
  std::string description;  // one line
  std::string record_key;   // its key in the record: "explicit", "sdpa", "no_causal_mask", ...
  subjects::torch_impl::TinyGptAttention path = subjects::torch_impl::TinyGptAttention::explicit_matmul;
  void (*deviate)(oracles::TinyGptConfig&) = nullptr;  // the manual side's deviation, if any

  // The manual side's configuration for the model `model`.
  oracles::TinyGptConfig manual_config(const oracles::TinyGptConfig& model) const;
  // Why it cannot run here (torch-sdpa without an SDPA in this LibTorch), or "".
  std::string unavailable() const;
};

// torch-autograd, torch-sdpa, then the probes, in a stable order.
const std::vector<BridgeSubject>& bridge_subjects();
// Throws InputError listing the known names.
const BridgeSubject& find_bridge_subject(const std::string& name);

}  // namespace parity::properties::bridge
