#pragma once
// rope's pairing (rope_op.hpp): which two elements of a head are rotated together, for the
// reference (rope_op.hpp) and the kernel (rope_kernel.cuh) both, and nothing else of the
// kernel's for the reference: an oracle never knows a subject (docs/design.md).
#include <cstdint>

#include <parity/core/hd.hpp>

namespace parity::ops::rope {

// The columns, within a head's rotated 2P (its last Q pass through), of pair j's two elements.
PARITY_HD std::int64_t pair_first(std::int64_t j, std::int64_t /*P*/, bool interleaved) {
  return interleaved ? 2 * j : j;
}
PARITY_HD std::int64_t pair_second(std::int64_t j, std::int64_t P, bool interleaved) {
  return interleaved ? 2 * j + 1 : j + P;
}

}  // namespace parity::ops::rope
