#pragma once
// Matrix products whose every output is one multiply-add chain in a fixed order: the
// reductions of parity's kernels (ops/lora_forward/lora_arith.cuh). Output (i, j) continues from its current value c
// and, for p = 0, 1, ..., P - 1 in turn, becomes mac(c, a(i, p), b(p, j)) — one rounding per step, the order a function
// of P alone. The host twin computes many outputs at once (vectorised across j, tiled across i, columns split over the
// thread pool), but each output still walks its own chain in that order, so the bits are those of the per-element
// definition: the same for every instruction set (core/isa.hpp), tile and thread count, and those of the CUDA kernel.
#include <cstdint>
#include <functional>

#include <parity/core/isa.hpp>
#include <parity/subjects/builtin/matrix_view.hpp>

namespace parity::subjects::builtin {

// The kernel of one packed panel: rows i < M of a and c, panel[p][j] = b(p, j0 + j) for
// j < width (0 beyond, up to kPanelWidth), c pointing at column j0.
using PanelKernel = void (*)(std::int64_t M, const float* a, std::int64_t lda, const float* panel, std::int64_t P,
                             float* c, std::int64_t ldc, std::int64_t width);

// The vector panel kernel of `isa` (one no better than best_isa()): c = fma(a, b, c) in each step,
// mac_panel<FmaMac>'s bits.
PanelKernel fma_panel_kernel(Isa isa);

// For i < M and j < b.cols: c[i * ldc + j] continues over p < b.rows as c = mac(c, a[i * lda + p],
// b(p, j)), `kernel`'s step (fma_panel_kernel's, or mac_panel's of a policy), each panel of b
// packed (with pack_isa's packing, at most best_isa(); packing only moves values), on up to
// thread_count() threads: chain_columns over for_panel_ranges' ranges. The a rows and c must not
// overlap.
void chains_with(PanelKernel kernel, std::int64_t M, const float* a, std::int64_t lda, const MatrixView& b, float* c,
                 std::int64_t ldc, Isa pack_isa);

// The chains of chains_with for columns j0 <= j < j1 of b alone, on the calling thread, c
// pointing at column j0 (c[i * ldc + j - j0]): a kernel that does more per column than one
// product (several products into the same columns, an epilogue) runs each range of
// for_panel_ranges through them all, into a buffer of its own where it likes.
void chain_columns(PanelKernel kernel, Isa pack_isa, std::int64_t M, const float* a, std::int64_t lda,
                   const MatrixView& b, float* c, std::int64_t ldc, std::int64_t j0, std::int64_t j1);

// Runs body(j0, j1) over ranges of whole panels that cover columns [0, N), on the thread pool:
// chains_with's partition for `macs_per_column` multiply-adds a column (M P for one product), a
// function of the shape alone, each range on one thread.
void for_panel_ranges(std::int64_t N, std::int64_t macs_per_column,
                      const std::function<void(std::int64_t j0, std::int64_t j1)>& body);

// Columns per packed panel of b: every kernel computes 32 outputs of a row at a time.
inline constexpr std::int64_t kPanelWidth = 32;

// The scalar kernel of a Mac policy: the per-element definition, panel by panel.
template <class Mac>
void mac_panel(std::int64_t M, const float* a, std::int64_t lda, const float* panel, std::int64_t P, float* c,
               std::int64_t ldc, std::int64_t width) {
  for (std::int64_t i = 0; i < M; ++i) {
    float acc[kPanelWidth];
    for (std::int64_t j = 0; j < kPanelWidth; ++j) acc[j] = j < width ? c[i * ldc + j] : 0.0f;
    for (std::int64_t p = 0; p < P; ++p) {
      const float ai = a[i * lda + p];
      const float* b = panel + p * kPanelWidth;
      for (std::int64_t j = 0; j < kPanelWidth; ++j) acc[j] = Mac::mac(acc[j], ai, b[j]);
    }
    for (std::int64_t j = 0; j < width; ++j) c[i * ldc + j] = acc[j];
  }
}

}  // namespace parity::subjects::builtin
