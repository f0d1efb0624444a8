#pragma once
// The arithmetic of parity's deterministic LoRA kernel, shared bit for bit by the CUDA kernel
// (lora.cu) and its host twin (lora_host.hpp), the subjects of lora_forward and lora_backward. Both evaluate, in
// float32:
//
//   h[t,j]  = sum_k  x[t,k] A[j,k]                          (fma chain, k ascending, from 0)
//   y[t,n]  = bf16( fma(s, sum_j h[t,j] B[n,j], sum_k x[t,k] W[n,k]) )   (j, k ascending)
//   dh[t,j] = s * sum_n dy[t,n] B[n,j]                       (n ascending)
//   dx[t,k] = bf16( sum_n dy[t,n] W[n,k]  continued by  sum_j dh[t,j] A[j,k] )   (one chain)
//   dA[j,k] = sum_t dh[t,j] x[t,k]                           (t ascending)
//   dB[n,j] = s * sum_t dy[t,n] h[t,j]                       (t ascending)
//
// Every reduction order is a function of its own reduction length only: never of T (for
// the row-local outputs y, h, dh, dx), of the grid, the tile or the thread count. That is
// what makes y and dx batch invariant by construction. Explicit fma everywhere; the
// translation units that include this header are compiled without contraction
// (-ffp-contract=off on the host, --fmad=false on the device).
#include <cmath>
#include <cstdint>

#include <parity/core/bf16.hpp>
#include <parity/core/hd.hpp>

namespace parity::ops::lora_forward::arith {

// One step of every reduction: acc + a * b, rounded once.
PARITY_HD float mac(float acc, float a, float b) { return fmaf(a, b, acc); }

// y[t,n] before its bf16 rounding: the low-rank chain scaled onto the base chain, one rounding.
PARITY_HD float forward_sum(float base, float low_rank, float scale) { return fmaf(scale, low_rank, base); }

// y[t,n] from its two float32 chains.
PARITY_HD std::uint16_t forward_output(float base, float low_rank, float scale) {
  return bf16_from_float_rne(forward_sum(base, low_rank, scale));
}

// dh, dB: the scale applied once to a finished chain.
PARITY_HD float scaled(float scale, float chain) { return scale * chain; }

// dx[t,k] from its finished chain.
PARITY_HD std::uint16_t input_gradient_output(float chain) { return bf16_from_float_rne(chain); }

// Element (i, j) of a strided 2-D operand.
PARITY_HD std::int64_t at(std::int64_t offset, std::int64_t s0, std::int64_t s1, std::int64_t i, std::int64_t j) {
  return offset + i * s0 + j * s1;
}

}  // namespace parity::ops::lora_forward::arith
