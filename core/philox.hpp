#pragma once
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11), the
// counter-based generator of cuRAND and PyTorch. Element i of stream s under seed k is a pure
// function of (k, s, i): inputs do not depend on fill order, thread count or device.
#include <array>
#include <cstdint>

#include <parity/core/hd.hpp>

namespace parity {

struct PhiloxKey {
  std::uint32_t k0, k1;
};

PARITY_HD std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> ctr, PhiloxKey key) {
  constexpr std::uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = static_cast<std::uint64_t>(kM0) * ctr[0];
    const std::uint64_t p1 = static_cast<std::uint64_t>(kM1) * ctr[2];
    ctr = {static_cast<std::uint32_t>(p1 >> 32) ^ ctr[1] ^ key.k0, static_cast<std::uint32_t>(p1),
           static_cast<std::uint32_t>(p0 >> 32) ^ ctr[3] ^ key.k1, static_cast<std::uint32_t>(p0)};
    key.k0 += kW0;
    key.k1 += kW1;
  }
  return ctr;
}

// Four 32-bit words for element `index` of stream `stream` under `seed`.
PARITY_HD std::array<std::uint32_t, 4> philox_words(std::uint64_t seed, std::uint32_t stream, std::uint64_t index) {
  return philox4x32_10({static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32), stream, 0u},
                       {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
}

// A uniform double in (0, 1] from 53 random bits (never 0, so log() is defined).
PARITY_HD double uniform_open0(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t bits53 = ((static_cast<std::uint64_t>(hi) << 32) | lo) >> 11;
  return static_cast<double>(bits53 + 1) * (1.0 / 9007199254740992.0);
}

}  // namespace parity
