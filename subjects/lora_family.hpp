#pragma once
// The LoRA family's subject interface (docs/math.md, "LoRA linear"). Every LoRA implementation under
// test — parity's own (host twin, CUDA), LibTorch, the mismatch probes, a user's kernel —
// is a LoraSubject, and the properties know nothing else about it.
//
// Dtypes: x, W, dy and y, dx are bf16; A, B, dA, dB are float32. The bf16 operands carry the
// activations and the frozen base weight, the float32 ones the trainable adapter; this split
// is what the reference report's error levels show (~1.7e-3 for y and dx, ~1e-6 for dA, dB).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <parity/core/tensor.hpp>
#include <parity/subjects/subject_info.hpp>
#include <parity/subjects/subject_registry.hpp>

namespace parity::subjects {

struct LoraInputs {
  Tensor x;            // [T, K] bf16, any strides
  Tensor W;            // [N, K] bf16, frozen base weight
  Tensor A;            // [r, K] f32
  Tensor B;            // [N, r] f32
  float scale = 1.0f;  // s = alpha / r, as the float32 the kernels multiply by
};

struct LoraGradients {
  Tensor dx;                 // [T, K] bf16
  Tensor dA;                 // [r, K] f32
  Tensor dB;                 // [N, r] f32
  std::optional<Tensor> dW;  // must stay empty: the base weight is frozen
};

// Which kernel configuration a subject took for a call (tile, split, path). Properties may
// report it; fuzzers use it as feedback.
struct LoraPath {
  std::string name;  // e.g. "tiled-fma" or "split-k"
};

class LoraSubject {
 public:
  virtual ~LoraSubject() = default;
  // y = x W^T + s (x A^T) B^T, [T, N] bf16 contiguous. Inputs are not modified.
  virtual Tensor forward(const LoraInputs& in) = 0;
  // Gradients for dy = dL/dy ([T, N] bf16, any strides).
  virtual LoraGradients backward(const LoraInputs& in, const Tensor& dy) = 0;
  // The path the last call took (default: one fixed path).
  virtual LoraPath last_path() const { return {"fixed"}; }
};

// Describes a LoRA subject; register it with register_subject (subjects/subject_registry.hpp).
// Capabilities used: strided_layouts, backward.
using LoraSubjectInfo = SubjectInfo<LoraSubject>;
extern template class SubjectRegistry<LoraSubject>;

// Throws InputError naming the operand if dtypes, ranks or extents disagree, or if an extent
// is zero.
void validate_lora_inputs(const LoraInputs& in);
void validate_lora_dy(const LoraInputs& in, const Tensor& dy);

// Every registered LoRA subject in registration order: a user's (registered at static
// initialisation) first, then parity's own (registered by the first call). Fixes the list.
const std::vector<LoraSubjectInfo>& lora_subjects();
// Looks a subject up by name; throws InputError listing the known names otherwise.
const LoraSubjectInfo& find_lora_subject(const std::string& name);

}  // namespace parity::subjects
