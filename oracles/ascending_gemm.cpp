#include <parity/oracles/ascending_gemm.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include <parity/core/thread_pool.hpp>

namespace parity::oracles {
namespace {

constexpr std::int64_t kWidth = 32;      // columns of a packed panel of b
constexpr std::int64_t kDepth = 256;     // steps of l per packed block
constexpr std::int64_t kChunkRows = 96;  // rows of one task (a multiple of every tile's)
constexpr std::int64_t kTileRows = 6;    // every tile's rows divide it
// Tasks a product of few panels (a rank-r product's, n <= kWidth) is cut into by rows, where its
// rows make that many whole tiles: otherwise it runs on one thread while the pool waits.
constexpr std::int64_t kMinTasks = 4;
constexpr std::int64_t kSerialWork = std::int64_t{1} << 15;  // m n k below which one task runs

// The integer vector of V's width (its sign bits cleared by an and: |x| lane by lane).
template <std::size_t kBytes>
struct SignlessBits;
template <>
struct SignlessBits<16> {
  using type = std::int64_t __attribute__((vector_size(16)));
};
template <>
struct SignlessBits<32> {
  using type = std::int64_t __attribute__((vector_size(32)));
};
template <>
struct SignlessBits<64> {
  using type = std::int64_t __attribute__((vector_size(64)));
};

// A tile of R rows x kWidth columns: acc[r * kWidth + j] continues over the block's steps p as
// acc = acc + a(r, p) * panel[p][j], vectors of V across j, and where kMags mag[r * kWidth + j]
// as mag = mag + |a(r, p)| * |panel[p][j]|. Always inlined into the per-ISA entry points below,
// so V's operations are that instruction set's.
template <class V, int R, bool kMags>
[[gnu::always_inline]] inline void tile(const double* a, std::int64_t a_row, std::int64_t a_step, const double* panel,
                                        std::int64_t steps, double* acc, double* mag) {
  constexpr int kLanes = sizeof(V) / sizeof(double), kVectors = kWidth / kLanes, kSets = kMags ? 2 : 1;
  using Bits = typename SignlessBits<sizeof(V)>::type;
  constexpr Bits kNoSign = Bits{} + 0x7fffffffffffffff;
  double* const sums[2] = {acc, mag};
  V s[kSets][R][kVectors];
#pragma GCC unroll 2
  for (int w = 0; w < kSets; ++w)
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
      for (int q = 0; q < kVectors; ++q) std::memcpy(&s[w][r][q], sums[w] + r * kWidth + q * kLanes, sizeof(V));
  for (std::int64_t p = 0; p < steps; ++p) {
    const double* b = panel + p * kWidth;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const double x = a[r * a_row + p * a_step];
#pragma GCC unroll 16
      for (int q = 0; q < kVectors; ++q) {
        V bq;
        std::memcpy(&bq, b + q * kLanes, sizeof(V));
        s[0][r][q] = s[0][r][q] + x * bq;  // two roundings: -ffp-contract=off
        if constexpr (kMags) s[1][r][q] = s[1][r][q] + __builtin_fabs(x) * (V)((Bits)bq & kNoSign);
      }
    }
  }
#pragma GCC unroll 2
  for (int w = 0; w < kSets; ++w)
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
      for (int q = 0; q < kVectors; ++q) std::memcpy(sums[w] + r * kWidth + q * kLanes, &s[w][r][q], sizeof(V));
}

// The last `rows` < R rows of a block, in one tile.
template <class V, int R, bool kMags>
[[gnu::always_inline]] inline void rest(std::int64_t rows, const double* a, std::int64_t a_row, std::int64_t a_step,
                                        const double* panel, std::int64_t steps, double* acc, double* mag) {
  if constexpr (R > 1) {
    if (rows == R - 1) return tile<V, R - 1, kMags>(a, a_row, a_step, panel, steps, acc, mag);
    rest<V, R - 1, kMags>(rows, a, a_row, a_step, panel, steps, acc, mag);
  }
}

// Rows [0, rows) of a block: tiles of kRows rows, then one of the rest. mag is null unless kMags.
template <class V, int kRows, bool kMags>
[[gnu::always_inline]] inline void block(std::int64_t rows, const double* a, std::int64_t a_row, std::int64_t a_step,
                                         const double* panel, std::int64_t steps, double* acc, double* mag) {
  const auto at = [&](double* x, std::int64_t i) { return kMags ? x + i * kWidth : nullptr; };
  std::int64_t i = 0;
  for (; i + kRows <= rows; i += kRows)
    tile<V, kRows, kMags>(a + i * a_row, a_row, a_step, panel, steps, acc + i * kWidth, at(mag, i));
  if (i < rows)
    rest<V, kRows, kMags>(rows - i, a + i * a_row, a_row, a_step, panel, steps, acc + i * kWidth, at(mag, i));
}

using Block = void (*)(std::int64_t, const double*, std::int64_t, std::int64_t, const double*, std::int64_t, double*,
                       double*);

using V2 = double __attribute__((vector_size(16)));
template <bool kMags>
void block_portable(std::int64_t rows, const double* a, std::int64_t a_row, std::int64_t a_step, const double* panel,
                    std::int64_t steps, double* acc, double* mag) {
  block<V2, 1, kMags>(rows, a, a_row, a_step, panel, steps, acc, mag);
}

#if defined(__x86_64__) && defined(__GNUC__)
using V4 = double __attribute__((vector_size(32)));
using V8 = double __attribute__((vector_size(64)));
// AVX2: 2 rows x 8 ymm accumulators, or 1 row of each sum. AVX-512: 6 rows x 4 zmm (24 of its 32
// registers), or 3 rows of each sum.
template <bool kMags>
[[gnu::target("avx2")]] void block_avx2(std::int64_t rows, const double* a, std::int64_t a_row, std::int64_t a_step,
                                        const double* panel, std::int64_t steps, double* acc, double* mag) {
  block<V4, kMags ? 1 : 2, kMags>(rows, a, a_row, a_step, panel, steps, acc, mag);
}
template <bool kMags>
[[gnu::target("avx512f")]] void block_avx512(std::int64_t rows, const double* a, std::int64_t a_row,
                                             std::int64_t a_step, const double* panel, std::int64_t steps, double* acc,
                                             double* mag) {
  block<V8, kMags ? 3 : 6, kMags>(rows, a, a_row, a_step, panel, steps, acc, mag);
}
#endif

template <bool kMags>
Block block_for(Isa isa) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (isa == Isa::avx512) return &block_avx512<kMags>;
  if (isa == Isa::avx2) return &block_avx2<kMags>;
#endif
  (void)isa;
  return &block_portable<kMags>;
}

void run(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a, const GemmOperand<double>& b,
         double* c, double* mags, Isa isa) {
  if (m <= 0 || n <= 0) return;
  const Isa use = std::min(isa, best_isa());
  const Block kernel = mags ? block_for<true>(use) : block_for<false>(use);
  const std::int64_t sets = mags ? 2 : 1;
  // a(i, l) at a.p[i * a_row + l * a_step]; b(l, j) likewise.
  const std::int64_t a_row = a.trans ? 1 : a.ld, a_step = a.trans ? a.ld : 1;
  const std::int64_t b_step = b.trans ? 1 : b.ld, b_col = b.trans ? b.ld : 1;
  const std::int64_t panels = (n + kWidth - 1) / kWidth;
  // Rows of a task: kChunkRows, or fewer (whole tiles, at least one) where that leaves fewer than
  // kMinTasks tasks. A partition of m and n alone; each element's sum is its own whatever the
  // partition.
  std::int64_t chunk_rows = kChunkRows;
  if (panels * ((m + kChunkRows - 1) / kChunkRows) < kMinTasks) {
    const std::int64_t per_panel = (kMinTasks + panels - 1) / panels;
    chunk_rows = std::max(kTileRows, m / per_panel / kTileRows * kTileRows);
  }
  const std::int64_t chunks = (m + chunk_rows - 1) / chunk_rows;
  // One task: rows [i0, i0 + rows) x the panel's columns [j0, j0 + width), every step of l.
  const auto task = [&](std::size_t t) {
    const std::int64_t i0 = static_cast<std::int64_t>(t) / panels * chunk_rows,
                       j0 = static_cast<std::int64_t>(t) % panels * kWidth;
    const std::int64_t rows = std::min(chunk_rows, m - i0), width = std::min(kWidth, n - j0);
    std::vector<double> acc(static_cast<std::size_t>(sets * rows * kWidth), 0.0);
    std::vector<double> panel(static_cast<std::size_t>(std::min(k, kDepth) * kWidth), 0.0);
    double* const mag = mags ? acc.data() + rows * kWidth : nullptr;
    for (std::int64_t l0 = 0; l0 < k; l0 += kDepth) {
      const std::int64_t steps = std::min(kDepth, k - l0);
      // Read along b's stored rows: l inner where b is transposed.
      const auto put = [&](std::int64_t p, std::int64_t j) {
        panel[static_cast<std::size_t>(p * kWidth + j)] = b.p[(l0 + p) * b_step + (j0 + j) * b_col];
      };
      if (b.trans) {
        for (std::int64_t j = 0; j < width; ++j)
          for (std::int64_t p = 0; p < steps; ++p) put(p, j);
      } else {
        for (std::int64_t p = 0; p < steps; ++p)
          for (std::int64_t j = 0; j < width; ++j) put(p, j);
      }
      kernel(rows, a.p + i0 * a_row + l0 * a_step, a_row, a_step, panel.data(), steps, acc.data(), mag);
    }
    for (std::int64_t r = 0; r < rows; ++r) {
      std::copy_n(acc.data() + r * kWidth, width, c + (i0 + r) * n + j0);
      if (mags) std::copy_n(mag + r * kWidth, width, mags + (i0 + r) * n + j0);
    }
  };
  const auto tasks = static_cast<std::size_t>(panels * chunks);
  if (tasks == 1 || m * n * k < kSerialWork) {
    for (std::size_t t = 0; t < tasks; ++t) task(t);
    return;
  }
  parallel_chunks(tasks, task);
}

}  // namespace

void ascending_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a,
                    const GemmOperand<double>& b, double* c, Isa isa) {
  run(m, n, k, a, b, c, nullptr, isa);
}

void ascending_gemm_with_magnitudes(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a,
                                    const GemmOperand<double>& b, double* c, double* mags, Isa isa) {
  run(m, n, k, a, b, c, mags, isa);
}

}  // namespace parity::oracles
