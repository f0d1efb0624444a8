#pragma once
// parity's LoRA subjects as the ops lora_forward and lora_backward call them: a call's operands
// (LoraOperands), checked naming the operand, and the factories of the subjects written outside
// the host twin (lora_host.hpp): parity's CUDA kernel (lora.cu) and LibTorch's reference
// (lora_torch.cpp). Plain C++ (nvcc compiles it for lora.cu); inline, so that neither
// parity_ops_cuda nor parity_ops_torch needs a symbol of parity_ops.
#include <memory>
#include <string>

#include <parity/core/error.hpp>
#include <parity/core/tensor.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::lora_forward {

// x [T, K] and W [N, K] bf16, A [r, K] and B [N, r] float32, any strides; s = alpha / r as the
// float32 the kernels multiply by.
struct LoraOperands {
  Tensor x, W, A, B;
  float scale = 1.0f;
};

// A call's operands read in place (LoraOperands' fields, not copies): what the host twin runs on.
struct LoraOperandRefs {
  const Tensor &x, &W, &A, &B;
  float scale = 1.0f;
};

// lora_backward's outputs: dx [T, K] bf16, dA [r, K] and dB [N, r] float32, contiguous.
struct LoraGradients {
  Tensor dx, dA, dB;
};

// Throws InputError "lora inputs: ..." naming the operand whose dtype or rank is not the above,
// that has a zero extent, or whose extents disagree with the others'. `Operands`: LoraOperands or
// LoraOperandRefs.
template <class Operands>
void check_operands(const Operands& in) {
  const auto require = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("lora inputs: " + what);
  };
  const auto matrix = [&](const Tensor& t, const char* name, DType dtype) {
    require(t.shape().size() == 2, std::string(name) + " must be 2-D");
    require(t.dtype() == dtype, std::string(name) + " must be " + std::string(dtype_name(dtype)));
    require(t.dim(0) > 0 && t.dim(1) > 0, std::string(name) + " has a zero extent");
  };
  matrix(in.x, "x", DType::bf16);
  matrix(in.W, "W", DType::bf16);
  matrix(in.A, "A", DType::f32);
  matrix(in.B, "B", DType::f32);
  require(in.W.dim(1) == in.x.dim(1), "W is [N, K] and x is [T, K]: K differs");
  require(in.A.dim(1) == in.x.dim(1), "A is [r, K] and x is [T, K]: K differs");
  require(in.B.dim(0) == in.W.dim(0), "B is [N, r] and W is [N, K]: N differs");
  require(in.B.dim(1) == in.A.dim(0), "B is [N, r] and A is [r, K]: r differs");
}

// Throws InputError naming dy where it is not a bf16 [T, N] of `in`.
template <class Operands>
void check_dy(const Operands& in, const Tensor& dy) {
  if (dy.shape().size() != 2 || dy.dtype() != DType::bf16 || dy.dim(0) != in.x.dim(0) || dy.dim(1) != in.W.dim(0))
    throw InputError("lora inputs: dy must be a bf16 [T, N]");
}

// The operands of a call of lora_forward or lora_backward, checked (InputError naming what the
// call lacks, or as check_operands), read in place: references into `call`, which must outlive
// them.
inline LoraOperandRefs operand_refs_of(const OpCall& call) {
  const LoraOperandRefs in{.x = call.input("x"),
                           .W = call.input("W"),
                           .A = call.input("A"),
                           .B = call.input("B"),
                           .scale = static_cast<float>(call.param("scale"))};
  check_operands(in);
  return in;
}

// The same operands, copied.
inline LoraOperands operands_of(const OpCall& call) {
  const LoraOperandRefs in = operand_refs_of(call);
  return {.x = in.x, .W = in.W, .A = in.A, .B = in.B, .scale = in.scale};
}

// parity's CUDA kernel (lora.cu) as a subject of lora_forward and of lora_backward: y, dx, dA and
// dB bit for bit the host twin's (lora_host.hpp) for every input, layout and shape, each output
// one fma chain in the ascending order lora_arith.cuh documents, whatever T, grid and tile.
// Operands of any strides and offset; outputs contiguous. Each call runs synchronously on the
// current device and throws std::runtime_error naming the CUDA call that failed (InputError on bad
// operands, before any work on the device).
std::unique_ptr<OpSubject> make_forward_cuda_kernel();
std::unique_ptr<OpSubject> make_backward_cuda_kernel();

// LibTorch's LoRA linear as PEFT's `Linear.forward` computes it (lora_torch.cpp), on the CPU or
// the first CUDA device: the forward with bf16 operands upcast to float32, float32 GEMMs and one
// bf16 rounding; the backward by autograd, W without requires_grad. Results come back as CPU
// Tensors. Throws InputError with torch_unavailable_reason(on_cuda) where that is not empty: a
// CUDA subject never falls back to the CPU.
std::unique_ptr<OpSubject> make_torch_forward(bool on_cuda);
std::unique_ptr<OpSubject> make_torch_backward(bool on_cuda);
// Why LibTorch cannot run the LoRA linear there: "" where it can; for CUDA "LibTorch built
// without CUDA" or "no CUDA device".
std::string torch_unavailable_reason(bool on_cuda);

}  // namespace parity::ops::lora_forward
