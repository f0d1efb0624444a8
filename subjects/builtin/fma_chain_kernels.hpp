#pragma once
// The vector panel kernels of fma_panel_kernel (fma_chain.hpp), one per instruction set; each
// computes what mac_panel<FmaMac> computes, bit for bit. Called only where the CPU has the
// instruction set (fma_chain.cpp dispatches on core/isa.hpp).
#include <cstdint>

namespace parity::subjects::builtin {

void fma_panel_avx2(std::int64_t M, const float* a, std::int64_t lda, const float* panel, std::int64_t P, float* c,
                    std::int64_t ldc, std::int64_t width);
void fma_panel_avx512(std::int64_t M, const float* a, std::int64_t lda, const float* panel, std::int64_t P, float* c,
                      std::int64_t ldc, std::int64_t width);

// panel[p][j] = bf16 value src[j * s_col + p] for j < width, 0 up to kPanelWidth (64-byte
// aligned panel): the packing of a view whose reduction index p is contiguous.
void pack_bf16_rows_avx512(const std::uint16_t* src, std::int64_t s_col, std::int64_t P, std::int64_t width,
                           float* panel);

// Rows per tile: at most `most`, as evenly as possible over ceil(M / most) tiles, so that no
// tile is left with one or two rows (too few independent chains to hide the fma latency).
inline std::int64_t tile_rows(std::int64_t M, std::int64_t most, std::int64_t tile) {
  const std::int64_t tiles = (M + most - 1) / most;
  return M / tiles + (tile < M % tiles ? 1 : 0);
}

}  // namespace parity::subjects::builtin
