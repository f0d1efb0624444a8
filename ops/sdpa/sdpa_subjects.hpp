#pragma once
// The subjects of sdpa and sdpa_backward compiled into libraries of their own, declared for sdpa_op.cpp, which
// registers them: parity's CUDA kernels (sdpa.cu, where the build has CUDA) and LibTorch's implementations
// (sdpa_torch.cpp). Plain C++: callers need no CUDA or LibTorch headers.
#include <memory>
#include <string>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::sdpa {

// Subjects whose outputs equal their host twins' (SdpaHost<Standard>,
// SdpaBackwardHost<BackwardStandard>) bit for bit for every input, layout and shape: one thread
// per query row (the backward: then one per key), every operation sdpa_arith.cuh's in the twins'
// order. Inputs may have any strides and offset; outputs are contiguous. Run synchronously on
// the current device; throw std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();
std::unique_ptr<OpSubject> make_cuda_backward_kernel();
// sdpa_varlen's CUDA kernel (sdpa_varlen.cu), bit for bit SdpaVarlenHost<VarlenStandard>'s: one
// thread per (packed token, query head), packed inputs of any strides, contiguous packed outputs.
std::unique_ptr<OpSubject> make_cuda_varlen_kernel();

// LibTorch's attention on the CPU as reference subjects of sdpa and sdpa_backward: findings, never gated. From
// LibTorch 2.2 on, at::_scaled_dot_product_flash_attention_for_cpu is the kernel at::scaled_dot_product_attention
// runs on the CPU for these dtypes, and the one that returns the logsumexp; its _backward is what autograd runs for
// it. LibTorch 1.13 has no fused CPU attention: there the subjects are ATen's composition of its math path in float32
// (matmul, softmax, logsumexp), differentiated by autograd. Their [B, H, S, D] tensors go to ATen as they are: the
// layout's memory order in their strides, as model code passes transposed views. With grouped-query heads (G > 1)
// k and v [B, Hkv, S, D] are first repeated along the heads (repeat_interleave, what scaled_dot_product_attention's
// enable_gqa computes; the fused CPU kernel takes equal head counts), and dk, dv are the sums of their copies'
// gradients over each group (LibTorch's sum; autograd's on 1.13).
std::unique_ptr<OpSubject> make_torch_cpu();
// What the subjects run in this LibTorch, for their descriptions.
std::string torch_kernel();
std::unique_ptr<OpSubject> make_torch_cpu_backward();
// LibTorch's attention forward as sdpa_varlen's reference subject: make_torch_cpu's kernel on each
// packed sequence alone ([L_b, H, D] seen as [1, H, L_b, D]), the outputs packed back in order.
std::unique_ptr<OpSubject> make_torch_cpu_varlen();

}  // namespace parity::ops::sdpa
