#pragma once
// The arithmetic of parity's deterministic RoPE kernel, shared bit for bit by the CUDA kernel
// (rope.cu) and its host twin (rope_host.hpp). All float32, one rounding per operation, no
// contraction: y1 = (x1 * c) - (x2 * s), y2 = (x2 * c) + (x1 * s), each rounded once to the
// output dtype (bf16: round to nearest even). No element depends on another row. Declared arithmetic: the default
// (nothing beyond IEEE float32: no reduction, no elementary function).
#include <cstdint>

#include <parity/core/hd.hpp>

namespace parity::ops::rope {

// The op's pairing (rope_op.hpp): the columns, within a head's rotated 2P (its last Q
// pass through), of pair j's two elements.
PARITY_HD std::int64_t pair_first(std::int64_t j, std::int64_t /*P*/, bool interleaved) {
  return interleaved ? 2 * j : j;
}
PARITY_HD std::int64_t pair_second(std::int64_t j, std::int64_t P, bool interleaved) {
  return interleaved ? 2 * j + 1 : j + P;
}

PARITY_HD float rotated_first(float x1, float x2, float c, float s) { return x1 * c - x2 * s; }
PARITY_HD float rotated_second(float x1, float x2, float c, float s) { return x2 * c + x1 * s; }

}  // namespace parity::ops::rope
