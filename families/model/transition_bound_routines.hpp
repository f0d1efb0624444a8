#pragma once
// A kernel of the op transition_step (ops/transition_step: a user's registered transition
// subject or op subject, a PyTorch operator by schema name, or parity's own) bound at the model's
// transition boundary: the routine transition_step_logprob with its SDE step and log-prob served by
// that kernel (families/model/routines/transition_kernel.hpp). A transition subject takes the
// boundary's call whole, every sample at its own sigma and sigma_prev; any other kernel of the op
// takes sigma and step per call, so it is called once per group of samples that share them (one
// call for a sampler's batch, which shares one sigma) and its description says so. The routine keeps
// the replaced routine's acceptance, opt-in group and boundary, under its name with "=SUBJECT"
// ("transition_step_logprob=my-step"), so every mode (strict, audit, auto, off) binds it as it
// binds parity's routine and the binding log names it. Its self-check, run by auto mode before it
// binds: the same bits twice and finite outputs on a small example, and on CUDA the bits of the
// kernel's host twin (a CUDA kernel without one is bound by strict and audit modes only). A
// kernel unavailable here refuses every call, saying why.
//
// The boundary's settings are the model's: an SDE step, noise level 0.7, the normaliser on, and
// sigma_max 1 (the op declares at most 0.999), which enters only at sigma = 1, which the model
// refuses. The model's generated sigmas lie inside the op's declared ranges; any the boundary
// gets go to the kernel as they are. The trajectory family samples with Euler steps on the
// velocity and never reaches the transition boundary, so these kernels have no trajectory subject.
// The first call fixes the subject lists of the op and of the transition family.
#include <string>
#include <vector>

#include <parity/families/model/op_kernels.hpp>
#include <parity/subjects/runtime/routine_registry.hpp>

namespace parity::properties::model {

inline constexpr const char* kTransitionOp = "transition_step";

// Every bindable kernel of kTransitionOp, in registration order; its description says whether it
// takes every sample's sigma in one call or is called per group of samples.
std::vector<BoundKernel> transition_kernels();

// The model's routines with transition_step_logprob on `subject` on `backend`. One registry per
// subject, for the program's lifetime. Throws InputError naming the op and the subject when it
// has no such subject, it is a reference or a probe, or it runs on another backend.
const runtime::RoutineRegistry& routines_with_transition_kernel(const std::string& subject, runtime::Backend backend);

}  // namespace parity::properties::model
