#pragma once
// LibTorch's transition step: Flow-GRPO's `sde_step_with_logprob` (docs/math.md, "Flow-matching SDE
// step with log-prob"; subjects/transition_family.hpp), written in ATen operators exactly as
// the public Python code writes it. Plain header: callers need no LibTorch include.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <parity/subjects/transition_family.hpp>

namespace parity::subjects::torch_impl {

// The LibTorch formula: the reference subject ("torch-cpu" / "torch-cuda"). Each Python
// operator of sde_step_with_logprob becomes the corresponding ATen operator, in the same
// order and grouping, with per-row sigma and sigma_prev as [B, 1] float32 tensors broadcast
// against [B, n] and the Python floats (sigma_max, noise_level, sin(a pi / 2), 2, 1, -1) as
// Scalars. sample() uses in.eps as variance_noise; score(prev) evaluates log_prob with
// prev_sample = prev. Runs on the CPU, or on the first CUDA device when on_cuda; results
// always come back as contiguous CPU parity Tensors. Throws InputError with
// transition_torch_unavailable_reason(on_cuda) when that reason is not empty.
std::unique_ptr<TransitionSubject> make_transition_torch(bool on_cuda);

// A second, independently written formulation of the same step, as a second library would
// write it: the per-row std of prev around the mean, std_dev_t * sqrt(-dt), is computed once;
// the mean is the same expression as make_transition_torch's (so mean, prev and std agree
// bitwise); the log-prob terms use .square() and the normalising constant 0.5 log(2 pi) as a
// host double, then .flatten(1).mean(1). See transition_torch.cpp for the exact difference.
std::unique_ptr<TransitionSubject> make_transition_torch_second(bool on_cuda);

// An operand as both subjects above hand it to ATen on the CPU: its values, and whether ATen
// holds it contiguous.
struct AtenOperand {
  Tensor values;
  bool contiguous = false;
};
// The operands x, v, eps (float32) of sample(in) and prev of score(in, prev): parity's own part
// of the subjects' layout handling (whether ATen's results then depend on the layouts is ATen's
// behaviour, a finding), open to tests.
std::vector<std::pair<std::string, AtenOperand>> transition_torch_operands(const TransitionInputs& in,
                                                                           const Tensor& prev);

// Why the subjects above cannot run here for on_cuda: "" when they can; for CUDA
// "LibTorch built without CUDA" or "no CUDA device" (as lora_torch_unavailable_reason).
std::string transition_torch_unavailable_reason(bool on_cuda);

}  // namespace parity::subjects::torch_impl
