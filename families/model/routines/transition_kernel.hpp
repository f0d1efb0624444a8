#pragma once
// The model's transition step (primitives.hpp's transition_step) on a kernel of the op
// transition_step (ops/transition_step), in one of two ways:
//   - parity's kernel (host_row_step, cuda_row_step) takes the boundary's call as it is: every
//     sample at its own sigma and sigma_prev, all B samples in one call (primitives.cpp);
//   - any other kernel of the op (LibTorch's references, the probes, an op subject a program
//     registers, a PyTorch operator among them) takes sigma and step as parameters of a call, so
//     it is called once per group of
//     samples with the same sigma and sigma_prev bits, the groups in order of their first sample,
//     with step = sigma - sigma_prev and the step's other settings (type, sigma_max, noise_level
//     as a float32, normaliser) as parameters; its prev, mean, std and logp go back to the
//     samples' places. A sampler's batch shares one sigma, so it is one call there; samples at
//     different sigmas meet in no call, and batch invariance sees each group alone.
// Every group is checked before the first call: the operands as check_row_step (x, v, eps [B, n],
// n >= 1, x and v float32 or bf16, eps float32, one sigma and sigma_prev a sample), a step that is not a float32, or
// for which float32(sigma - step) is not sigma_prev (the op computes sigma_prev so), throws InputError naming the
// sample. Values the op does not declare (the boundary's sigma_max of 1, n above the op's maximum) go to the kernel as
// they are. A kernel that returns no float32 prev, mean [G, n], std and logp [G] throws runtime_error naming it. The
// kernels may be called from several threads at once (parity's are stateless).
#include <memory>
#include <string>

#include <parity/families/model/routines/primitives.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::model {

// `p` with transition_step on `kernel` (a subject of transition_step, named `subject` in errors),
// called per group of samples as above.
Primitives with_transition_kernel(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> kernel);

}  // namespace parity::model
