#pragma once
// The last step of a kernel whose output is bf16: two finished float32 chains joined by one
// fused multiply-add and rounded to bf16, for whole arrays at once (parity's LoRA forward,
// ops/lora_forward/lora_arith.cuh's forward_output).
#include <cstdint>

#include <parity/core/isa.hpp>

namespace parity::subjects::builtin {

// out[t * ld_out + j] = bf16_from_float_rne(fma(scale, a[t * ld + j], b[t * ld + j])) for
// t < rows, j < cols: one rounding to float32, then round-to-nearest-even to bf16, NaN to the
// canonical bf16 NaN (core/bf16.hpp), the same bits on `isa`'s vector kernel (one no better than
// best_isa()) as element by element.
void fma_round_bf16(Isa isa, std::int64_t rows, std::int64_t cols, std::int64_t ld_out, std::int64_t ld, float scale,
                    const float* a, const float* b, std::uint16_t* out);

}  // namespace parity::subjects::builtin
