#pragma once
// A kernel of the ops `sdpa` and `sdpa_backward` (ops/sdpa: a user's registered subject of both,
// or parity's own) bound at the model's attention: the row joint_attention (node attention)
// with its scaled dot-product attention, forward and backward, served by that kernel, and the
// rest of the row (the q, k, v and output projections, the per-head RMSNorm, RoPE) on parity's
// primitives of the same backend. The row keeps the replaced row's acceptance, opt-in group
// and boundary, under its name with "=SUBJECT" ("joint_attention=my-sdpa"), so every mode
// (strict, audit, auto, off) binds it as it binds parity's row and the binding log names it.
// sdpa binds at joint_attention only: token_refiner_block's attention stays parity's (its
// RMSNorm, RoPE and SwiGLU gate bind through primitive_bound_rows.hpp).
//
// The row hands the kernel q, k, v as parity's own attention kernel gets them
// (subjects/model/rows/sdpa_kernels.hpp: [B, H*T*Dh] rows, layout 0, not causal, at the model's
// scale 1/sqrt(Dh)). Its self-check, run by auto mode before it
// binds: forward and backward each give the same bits twice and finite outputs on a small
// example, and on CUDA the bits of the kernel's host twin (a CUDA kernel without one is bound by
// strict and audit modes only). A kernel unavailable here refuses every call, saying why.
//
// The model's generated cases (by default tokens up to 40, batch up to 4) stay inside the sdpa
// ops' declared maxima on B and S and below their plan thresholds on S; the row passes any shape
// the model's attention takes to the kernel, which `parity check sdpa` judges over the op's own.
// The first call fixes the subject lists of both ops (as listing the model's subjects does).
#include <string>
#include <vector>

#include <parity/properties/model/op_kernels.hpp>
#include <parity/subjects/runtime/row_registry.hpp>

namespace parity::properties::model {

// The ops whose kernels can serve the model's attention: a kernel is a subject of both, by one
// name.
inline constexpr const char* kAttentionOp = "sdpa";
inline constexpr const char* kAttentionBackwardOp = "sdpa_backward";

// Every bindable kernel of kAttentionOp that sdpa_backward also has, in registration order;
// unavailable where either op's subject is.
std::vector<BoundKernel> attention_kernels();

// The model's rows with joint_attention on `subject` (of both ops) on `backend`. One registry per
// subject, for the program's lifetime. Throws InputError naming the op and the subject when
// either op lacks it, it is a reference or a probe, or it runs on another backend.
const runtime::RowRegistry& rows_with_attention_kernel(const std::string& subject, runtime::Backend backend);

}  // namespace parity::properties::model
