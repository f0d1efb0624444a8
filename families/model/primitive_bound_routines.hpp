#pragma once
// A kernel of an op that the model's primitives run on, bound in every routine that runs the op:
//   rms_norm  (with rms_norm_backward)  the RMSNorms: joint_attention's per-head norms,
//                                       token_refiner_block's, adaln_norm_out's
//   rope                                the rotary embedding of joint_attention and
//                                       token_refiner_block (its backward is the same kernel)
//   swiglu    (with swiglu_backward)    the SwiGLU gate of swiglu_feed_forward and
//                                       token_refiner_block
//   sdpa      (with sdpa_backward)      the scaled dot-product attention of joint_attention and
//                                       token_refiner_block
// The routines are parity's (families/model/routines/model_routines.hpp, model_routines_on) on parity's
// primitives of their backend with that op's primitive swapped for an adapter over the kernel
// (families/model/routines/<op>_kernel(s).hpp): the same calls parity's own kernel of the op gets.
// The backward: a kernel that is also an implementation subject of the backward op (by the same
// name, on the same backend) serves the routines' backward too; otherwise (a forward-only kernel) the
// backward stays on parity's kernel of the backward op, and the subject's description says so.
//
// Which routines run the op is traced, not listed: each routine runs its self-check example once on the
// host with parity's kernel of the op counting its calls, and the routines that called it are bound.
// Each bound routine keeps its acceptance, opt-in group and boundary, under its name with "=SUBJECT"
// ("joint_attention=my-rms-norm"), so every mode (strict, audit, auto, off) binds it as it binds
// parity's routine and the binding log names it. Its self-check, run by auto mode before it binds, is
// the routine's own on the kernel: forward and, for a routine with a backward, backward each give the same
// bits twice and finite outputs (on CUDA the host twin's bits, so a CUDA kernel without a host
// twin is bound by strict and audit modes only). A kernel unavailable here refuses every call,
// saying why. The other routines are parity's, unchanged.
//
// The model's generated cases (by default tokens up to 40, batch up to 4) stay inside the ops'
// declared maxima (sdpa's on B and S, below its plan thresholds on S); the routines pass any shape the
// model takes to the kernel, which `parity check OP` judges over the op's own. The first call for
// an op fixes the subject lists of the op and its backward op.
//
// linear and transition_step have bindings of their own (op_bound_routines.hpp: the float32
// projections only; transition_bound_routines.hpp: transition_step_logprob).
#include <string>
#include <vector>

#include <parity/families/model/op_kernels.hpp>
#include <parity/subjects/runtime/routine_registry.hpp>

namespace parity::properties::model {

// The ops bound this way, in the order above.
const std::vector<std::string>& primitive_ops();

// Every bindable kernel of `op` (one of primitive_ops()), in registration order; its description
// says which kernel serves the backward.
std::vector<BoundKernel> primitive_kernels(const std::string& op);

// The model's routines with `op`'s primitive on `subject` on `backend`. One registry per op and
// subject, for the program's lifetime. Throws InputError naming the op when it is not one of
// primitive_ops(), and the op and the subject when the op has no such subject, it is a reference
// or a probe, or it runs on another backend.
const runtime::RoutineRegistry& routines_with_primitive_kernel(const std::string& op, const std::string& subject,
                                                               runtime::Backend backend);

// The names of the routines of parity's model that run `op` (traced as above), in registration order.
const std::vector<std::string>& routines_running(const std::string& op);

}  // namespace parity::properties::model
