#include <parity/subjects/builtin/fma_chain.hpp>

#include <algorithm>
#include <cmath>

#include <parity/core/bf16.hpp>
#include <parity/core/thread_pool.hpp>
#include <parity/subjects/builtin/fma_chain_kernels.hpp>

namespace parity::subjects::builtin {
namespace {

// The chains' step: acc + a * b, rounded once.
struct FmaMac {
  static float mac(float acc, float a, float b) { return fmaf(a, b, acc); }
};

// Outputs per chunk of the thread pool, at least: below it a call runs on the calling thread.
constexpr std::int64_t kMinChunkMacs = std::int64_t{1} << 16;

// dst[p * kPanelWidth + jj] = b(p, j0 + jj) for jj < width, 0 for width <= jj < kPanelWidth.
template <class T, class Convert>
void pack_typed(const MatrixView& b, const T* base, std::int64_t j0, std::int64_t width, float* dst, Convert conv) {
  const std::int64_t P = b.rows;
  if (width < kPanelWidth)
    for (std::int64_t p = 0; p < P; ++p) std::fill(dst + p * kPanelWidth + width, dst + (p + 1) * kPanelWidth, 0.0f);
  const T* src = base + j0 * b.s_col;
  if (b.s_col == 1) {  // each panel row is contiguous in memory
    for (std::int64_t p = 0; p < P; ++p) {
      const T* row = src + p * b.s_row;
      for (std::int64_t jj = 0; jj < width; ++jj) dst[p * kPanelWidth + jj] = conv(row[jj]);
    }
    return;
  }
  // Otherwise eight panel rows at a time, column by column: the eight destination lines stay
  // in L1 while each column is read in runs of eight.
  constexpr std::int64_t kRun = 8;
  for (std::int64_t p0 = 0; p0 < P; p0 += kRun) {
    const std::int64_t run = std::min(kRun, P - p0);
    for (std::int64_t jj = 0; jj < width; ++jj) {
      const T* col = src + jj * b.s_col + p0 * b.s_row;
      for (std::int64_t q = 0; q < run; ++q) dst[(p0 + q) * kPanelWidth + jj] = conv(col[q * b.s_row]);
    }
  }
}

void pack_panel(const MatrixView& b, std::int64_t j0, std::int64_t width, float* dst, Isa isa) {
  if (b.dtype == DType::bf16 && b.s_row == 1 && isa == Isa::avx512)
    pack_bf16_rows_avx512(static_cast<const std::uint16_t*>(b.base) + j0 * b.s_col, b.s_col, b.rows, width, dst);
  else if (b.dtype == DType::bf16)
    pack_typed(b, static_cast<const std::uint16_t*>(b.base), j0, width, dst,
               [](std::uint16_t v) { return bf16_to_float(v); });
  else pack_typed(b, static_cast<const float*>(b.base), j0, width, dst, [](float v) { return v; });
}

// A 64-byte aligned panel buffer per thread, reused across calls.
float* panel_buffer(std::int64_t P) {
  thread_local std::vector<float> buffer;
  const auto need = static_cast<std::size_t>(P * kPanelWidth + 16);
  if (buffer.size() < need) buffer.resize(need);
  const auto address = reinterpret_cast<std::uintptr_t>(buffer.data());
  return buffer.data() + ((64 - address % 64) % 64) / sizeof(float);
}

}  // namespace

void for_panel_ranges(std::int64_t N, std::int64_t macs_per_column,
                      const std::function<void(std::int64_t j0, std::int64_t j1)>& body) {
  if (N <= 0) return;
  const std::int64_t panels = (N + kPanelWidth - 1) / kPanelWidth;
  const std::int64_t macs = macs_per_column * kPanelWidth;  // a panel's
  const std::int64_t chunks = std::clamp<std::int64_t>(macs * panels / kMinChunkMacs, 1, panels);
  parallel_chunks(static_cast<std::size_t>(chunks), [&](std::size_t chunk) {
    const auto k = static_cast<std::int64_t>(chunk);
    body(panels * k / chunks * kPanelWidth, std::min(N, panels * (k + 1) / chunks * kPanelWidth));
  });
}

void chain_columns(PanelKernel kernel, Isa pack_isa, std::int64_t M, const float* a, std::int64_t lda,
                   const MatrixView& b, float* c, std::int64_t ldc, std::int64_t j0, std::int64_t j1) {
  const Isa pack = std::min(pack_isa, best_isa());
  const std::int64_t P = b.rows;
  if (M <= 0 || P <= 0) return;
  float* panel = panel_buffer(P);
  for (std::int64_t j = j0; j < j1; j += kPanelWidth) {
    const std::int64_t width = std::min(kPanelWidth, j1 - j);
    pack_panel(b, j, width, panel, pack);
    kernel(M, a, lda, panel, P, c + (j - j0), ldc, width);
  }
}

void chains_with(PanelKernel kernel, std::int64_t M, const float* a, std::int64_t lda, const MatrixView& b, float* c,
                 std::int64_t ldc, Isa pack_isa) {
  if (M <= 0 || b.rows <= 0) return;
  for_panel_ranges(b.cols, M * b.rows, [&](std::int64_t j0, std::int64_t j1) {
    chain_columns(kernel, pack_isa, M, a, lda, b, c + j0, ldc, j0, j1);
  });
}

PanelKernel fma_panel_kernel(Isa isa) {
  const Isa use = std::min(isa, best_isa());
  return use == Isa::avx512 ? &fma_panel_avx512 : use == Isa::avx2 ? &fma_panel_avx2 : &mac_panel<FmaMac>;
}

}  // namespace parity::subjects::builtin
