#pragma once
// A kernel of the op `linear` (ops/linear: a user's registered subject, or parity's own) bound at
// the model's float32 projections: the model's routines with audio_proj_in, audio_proj_out and the
// opt-in proj_in, proj_out served by that kernel instead of parity's linear routines. Each keeps the
// replaced routine's acceptance (x, W, b float32; x [..., K], W [N, K], b [N]), opt-in group and
// boundary, under its name with "=SUBJECT" ("audio_input_projection_fp32=my-linear"), so the
// binding log says which kernel served each boundary and every mode (strict, audit, auto, off)
// binds it as it binds parity's routines. text_context_projection (bf16 x and W, float32 b and y)
// stays parity's: the op's operands share one dtype.
//
// The routine flattens x to T token rows and calls the op with x, W and b (bias 1) for y float32;
// its backward (dx, what flows back through a projection) is the same kernel as a linear of
// dy [T, N] and W^T [K, N] without a bias. Its self-check, run by auto mode before it binds:
// forward and backward each give the same bits twice and finite outputs on a small example, and
// on CUDA the bits of the kernel's host twin (OpSubjectInfo::host_twin; a CUDA kernel without one
// is never bound by auto mode, only by strict and audit). A kernel whose subject is unavailable here
// refuses every call (cannot_take says why), so strict mode reports it and auto falls back.
#include <functional>
#include <string>
#include <vector>

#include <parity/families/model/op_kernels.hpp>
#include <parity/subjects/runtime/routine_registry.hpp>

namespace parity::properties::model {

// The op whose kernels can serve the model's projections.
inline constexpr const char* kProjectionOp = "linear";

// Every kernel of kProjectionOp that can serve the projections (op_kernels.hpp: implementation
// subjects on the host or on CUDA, a PyTorch operator registered as one, `parity check model
// --torch-op mylib::linear`, on CPU or CUDA tensors included), in registration order.
std::vector<BoundKernel> projection_kernels();

// The model's routines with its float32 projections on `subject`, an implementation subject of
// kProjectionOp whose backend is `backend`'s. One registry per subject, for the program's
// lifetime; the first call fixes the op's subject list (later registrations throw). Throws
// InputError naming the subject when the op has no such subject, it is a reference or a probe,
// or it is for another backend.
const runtime::RoutineRegistry& routines_with_projection_kernel(const std::string& subject, runtime::Backend backend);

}  // namespace parity::properties::model
