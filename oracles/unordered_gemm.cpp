#include <parity/oracles/unordered_gemm.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <parity/core/thread_pool.hpp>

namespace parity::oracles {
namespace {

constexpr std::int64_t kChunk = 256;                         // terms of a chunk: a tile's rows of a stay in L1 over it
constexpr std::int64_t kPanel = 32;                          // b's columns of one task
constexpr std::int64_t kRowChunk = 96;                       // a's rows of one task (a multiple of every tile's)
constexpr std::int64_t kSerialWork = std::int64_t{1} << 16;  // m n k below which one task runs

// The lanes' sums of eight vectors of 8 lanes as one vector (lane i: v[i]'s sum), each sum the
// tree ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7)): a transpose of the additions.
// (Written to `out`: a vector returned by value outside the instruction set's functions draws
// GCC's ABI note.)
template <class V>
[[gnu::always_inline]] inline void lane_sums8(const V* v, V& out) {
  V t[4], w[2];
  for (int p = 0; p < 4; ++p)
    t[p] = __builtin_shufflevector(v[2 * p], v[2 * p + 1], 0, 8, 2, 10, 4, 12, 6, 14) +
           __builtin_shufflevector(v[2 * p], v[2 * p + 1], 1, 9, 3, 11, 5, 13, 7, 15);
  for (int p = 0; p < 2; ++p)
    w[p] = __builtin_shufflevector(t[2 * p], t[2 * p + 1], 0, 1, 8, 9, 4, 5, 12, 13) +
           __builtin_shufflevector(t[2 * p], t[2 * p + 1], 2, 3, 10, 11, 6, 7, 14, 15);
  out = __builtin_shufflevector(w[0], w[1], 0, 1, 2, 3, 8, 9, 10, 11) +
        __builtin_shufflevector(w[0], w[1], 4, 5, 6, 7, 12, 13, 14, 15);
}

// Every element's value (its lanes' sum) and parts' magnitudes (its lanes' absolute values'
// sum) from its vector of lane sums, elements in row-major order of a tile of kA x kB.
template <class V, int kA, int kB>
[[gnu::always_inline]] inline void finish(const V (&acc)[kA][kB], double (&sum)[kA * kB], double (&mag)[kA * kB]) {
  constexpr int kLanes = sizeof(V) / sizeof(double), kCount = kA * kB;
  if constexpr (kLanes == 8 && kCount % 8 == 0) {
    using Bits = std::int64_t __attribute__((vector_size(64)));
    const V* flat = &acc[0][0];
    for (int g = 0; g < kCount; g += 8) {
      V abs[8];
      for (int i = 0; i < 8; ++i) abs[i] = (V)((Bits)flat[g + i] & (Bits{} + 0x7fffffffffffffff));
      V s, m;
      lane_sums8(flat + g, s);
      lane_sums8(abs, m);
      std::memcpy(sum + g, &s, sizeof(V));
      std::memcpy(mag + g, &m, sizeof(V));
    }
  } else {
    for (int r = 0; r < kA; ++r)
      for (int q = 0; q < kB; ++q) {
        double s = 0, m = 0;
        for (int i = 0; i < kLanes; ++i) {
          s += acc[r][q][i];
          m += std::fabs(acc[r][q][i]);
        }
        sum[r * kB + q] = s;
        mag[r * kB + q] = m;
      }
  }
}

// a's rows as kernel T reads them: tiles of kRows rows (past m: zeros), in each the rows'
// vectors of kLanes terms side by side, vector by vector over k (past k: zeros). The tile's rows
// for a run of terms are then one stream.
struct PackedRows {
  std::vector<double> data;
  std::int64_t rows, lanes, vectors;  // per tile: rows, lanes of a vector, vectors over k
  // The first element on a 64-byte boundary (a vector load that crosses a cache line costs two).
  double* base() { return data.data() + (-reinterpret_cast<std::uintptr_t>(data.data()) / 8 & 7); }
  const double* at(std::int64_t tile, std::int64_t vector) const {
    return const_cast<PackedRows*>(this)->base() + (tile * vectors + vector) * rows * lanes;
  }
};

PackedRows pack_rows(std::int64_t m, std::int64_t k, const GemmOperand<double>& a, std::int64_t rows,
                     std::int64_t lanes) {
  PackedRows p{{}, rows, lanes, (k + lanes - 1) / lanes};
  const std::int64_t tiles = (m + rows - 1) / rows, per_tile = p.vectors * rows * lanes;
  p.data.resize(static_cast<std::size_t>(tiles * per_tile + 8));
  const auto pack = [&](std::size_t tile) {
    double* out = p.base() + static_cast<std::int64_t>(tile) * per_tile;
    for (std::int64_t v = 0; v < p.vectors; ++v)
      for (std::int64_t r = 0; r < rows; ++r, out += lanes) {
        const std::int64_t i = static_cast<std::int64_t>(tile) * rows + r, l = v * lanes;
        const std::int64_t count = i < m ? std::min(lanes, k - l) : 0;
        std::copy_n(a.p + i * a.ld + l, count, out);
        std::fill(out + count, out + lanes, 0.0);
      }
  };
  if (m * k < kSerialWork) {
    for (std::size_t t = 0; t < static_cast<std::size_t>(tiles); ++t) pack(t);
  } else {
    parallel_chunks(static_cast<std::size_t>(tiles), pack);
  }
  return p;
}

// One task: rows [i0, i1) of a x columns [j0, j1) of b over every term, in chunks of kChunk terms;
// in each chunk a tile of kA rows of a (packed, kept in L1) against kB columns of b at a time
// (read in place, the panel's chunk from L2). Each element's vector of lane sums (lane = term mod the lane
// count; fma where the instruction set has it, the file's contraction) is kept in `state`
// between chunks and finished after the last. A tile past the last column reads that column
// again, its results unused. Always inlined into the per-ISA entry points below, so V's
// operations are that instruction set's.
template <class V, int kA, int kB>
[[gnu::always_inline]] inline void task(std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1,
                                        const PackedRows& a, const GemmOperand<double>& b, std::int64_t k,
                                        std::int64_t n, double* c, double* mags) {
  constexpr int kLanes = sizeof(V) / sizeof(double);
  const std::int64_t col_tiles = (j1 - j0 + kB - 1) / kB, row_tiles = (i1 - i0 + kA - 1) / kA;
  thread_local std::vector<V> state;  // [row tile][column tile][kA][kB]
  if (k > kChunk) state.resize(static_cast<std::size_t>(row_tiles * col_tiles * kA * kB));
  for (std::int64_t l0 = 0; l0 < k; l0 += kChunk) {
    const std::int64_t len = std::min(kChunk, k - l0);
    const bool first = l0 == 0, last = l0 + len == k;
    for (std::int64_t ti = 0; ti < row_tiles; ++ti) {
      const std::int64_t i = i0 + ti * kA;
      const double* pa = a.at(i / kA, l0 / kLanes);
      for (std::int64_t tj = 0; tj < col_tiles; ++tj) {
        const std::int64_t j = j0 + tj * kB;
        const double* pb[kB];
        for (int q = 0; q < kB; ++q) pb[q] = b.p + std::min(j + q, j1 - 1) * b.ld + l0;
        V acc[kA][kB];
        V* kept = last && first ? nullptr : state.data() + (ti * col_tiles + tj) * kA * kB;
        // Vector by vector (a copy of the whole array goes through memory as one block).
#pragma GCC unroll 8
        for (int r = 0; r < kA; ++r)
#pragma GCC unroll 8
          for (int q = 0; q < kB; ++q) {
            acc[r][q] = V{};
            if (!first) std::memcpy(&acc[r][q], kept + r * kB + q, sizeof(V));
          }
        const auto step = [&](std::int64_t l, std::size_t bytes) {
          V y[kB];
#pragma GCC unroll 8
          for (int q = 0; q < kB; ++q) {
            y[q] = V{};
            std::memcpy(&y[q], pb[q] + l, bytes);
          }
#pragma GCC unroll 8
          for (int r = 0; r < kA; ++r) {
            V x;
            std::memcpy(&x, pa + (l / kLanes * kA + r) * kLanes, sizeof(V));
#pragma GCC unroll 8
            for (int q = 0; q < kB; ++q) acc[r][q] += x * y[q];
          }
        };
        std::int64_t l = 0;
        for (; l + kLanes <= len; l += kLanes) step(l, sizeof(V));
        // The last terms: b's read into zero-padded vectors (a's are packed so), each padding
        // lane adding an exact +0.
        if (l < len) step(l, static_cast<std::size_t>(len - l) * sizeof(double));
        if (!last) {
#pragma GCC unroll 8
          for (int r = 0; r < kA; ++r)
#pragma GCC unroll 8
            for (int q = 0; q < kB; ++q) std::memcpy(kept + r * kB + q, &acc[r][q], sizeof(V));
          continue;
        }
        double sum[kA * kB], mag[kA * kB];
        finish<V, kA, kB>(acc, sum, mag);
        for (int r = 0; r < kA && i + r < i1; ++r)
          for (int q = 0; q < kB && j + q < j1; ++q) {
            const auto at = static_cast<std::size_t>((i + r) * n + j + q);
            c[at] = sum[r * kB + q];
            mags[at] = mag[r * kB + q];
          }
      }
    }
  }
}

using Task = void (*)(std::int64_t, std::int64_t, std::int64_t, std::int64_t, const PackedRows&,
                      const GemmOperand<double>&, std::int64_t, std::int64_t, double*, double*);

// Each kernel: its task, its tile's rows and its lanes.
struct Kernel {
  Task task;
  std::int64_t rows, lanes;
};

using V2 = double __attribute__((vector_size(16)));
void task_portable(std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1, const PackedRows& a,
                   const GemmOperand<double>& b, std::int64_t k, std::int64_t n, double* c, double* mags) {
  task<V2, 2, 2>(i0, i1, j0, j1, a, b, k, n, c, mags);
}

#if defined(__x86_64__) && defined(__GNUC__)
using V4 = double __attribute__((vector_size(32)));
using V8 = double __attribute__((vector_size(64)));
// AVX2: 4 x 3 ymm accumulators, 3 of b and 1 of a (16 registers). AVX-512: 6 x 4 zmm, 4 of b and
// 1 of a (29 of 32).
[[gnu::target("avx2,fma")]] void task_avx2(std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1,
                                           const PackedRows& a, const GemmOperand<double>& b, std::int64_t k,
                                           std::int64_t n, double* c, double* mags) {
  task<V4, 4, 3>(i0, i1, j0, j1, a, b, k, n, c, mags);
}
[[gnu::target("avx512f,fma")]] void task_avx512(std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1,
                                                const PackedRows& a, const GemmOperand<double>& b, std::int64_t k,
                                                std::int64_t n, double* c, double* mags) {
  task<V8, 6, 4>(i0, i1, j0, j1, a, b, k, n, c, mags);
}
#endif

Kernel kernel_for(Isa isa) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (isa == Isa::avx512) return {&task_avx512, 6, 8};
  if (isa == Isa::avx2) return {&task_avx2, 4, 4};
#endif
  (void)isa;
  return {&task_portable, 2, 2};
}

// Rows of a and columns of b contiguous: parity's kernel, a packed once, tasks of kRowChunk rows x
// kPanel columns on the pool.
void own_kernel(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a,
                const GemmOperand<double>& b, double* c, double* mags, Isa isa) {
  const Kernel kernel = kernel_for(std::min(isa, best_isa()));
  const PackedRows packed = pack_rows(m, k, a, kernel.rows, kernel.lanes);
  const std::int64_t panels = (n + kPanel - 1) / kPanel, row_chunks = (m + kRowChunk - 1) / kRowChunk;
  const auto one = [&](std::size_t t) {
    const std::int64_t i0 = static_cast<std::int64_t>(t) / panels * kRowChunk,
                       j0 = static_cast<std::int64_t>(t) % panels * kPanel;
    kernel.task(i0, std::min(m, i0 + kRowChunk), j0, std::min(n, j0 + kPanel), packed, b, k, n, c, mags);
  };
  const auto tasks = static_cast<std::size_t>(panels * row_chunks);
  if (tasks == 1 || m * n * k < kSerialWork) {
    for (std::size_t t = 0; t < tasks; ++t) one(t);
    return;
  }
  parallel_chunks(tasks, one);
}

// The operand that reads terms l0.. of a's inner extent: a's columns from l0 where `inner_is_columns`
// (a left operand), else its rows from l0 (a right one).
GemmOperand<double> from_term(const GemmOperand<double>& a, std::int64_t l0, bool inner_is_columns) {
  const bool contiguous = inner_is_columns != a.trans;  // the inner extent runs along a stored row
  return {a.p + (contiguous ? l0 : l0 * a.ld), a.ld, a.trans};
}

// Any other layout: kBlasParts BLAS products P_j over consecutive blocks of terms, c = P_0 + P_1 +
// ... and mags = |P_0| + |P_1| + ..., added in that order (each block holds a term: k >= parts).
constexpr std::int64_t kBlasParts = 4;
void blas_parts(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a,
                const GemmOperand<double>& b, double* c, double* mags) {
  thread_local std::vector<double> parts;  // blocks 1.. (block 0 goes to c)
  const auto size = static_cast<std::size_t>(m * n);
  const std::int64_t blocks = std::min(kBlasParts, k);
  parts.resize(size * static_cast<std::size_t>(blocks - 1));
  const auto part = [&](std::int64_t block) { return block == 0 ? c : parts.data() + size * (block - 1); };
  for (std::int64_t block = 0; block < blocks; ++block) {
    const std::int64_t l0 = k * block / blocks, l1 = k * (block + 1) / blocks;
    gemm(m, n, l1 - l0, from_term(a, l0, true), from_term(b, l0, false), part(block));
  }
  for (std::size_t i = 0; i < size; ++i) {
    double value = c[i], sum = std::fabs(c[i]);
    for (std::int64_t block = 1; block < blocks; ++block) {
      const double p = part(block)[i];
      value += p;
      sum += std::fabs(p);
    }
    c[i] = value;
    mags[i] = sum;
  }
  // Products of up to this many elements keep their blocks per thread between calls (48 MB at most).
  constexpr std::size_t kKeptElements = std::size_t{1} << 21;
  if (size > kKeptElements) std::vector<double>().swap(parts);
}

}  // namespace

void unordered_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a,
                    const GemmOperand<double>& b, double* c, double* part_mags, Isa isa) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    std::fill_n(c, m * n, 0.0);
    std::fill_n(part_mags, m * n, 0.0);
    return;
  }
  if (!a.trans && b.trans) return own_kernel(m, n, k, a, b, c, part_mags, isa);
  blas_parts(m, n, k, a, b, c, part_mags);
}

}  // namespace parity::oracles
