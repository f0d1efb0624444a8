// ascending_gemm (and its magnitudes' sums) against the scalar loops they stand for, bit for bit, on every kernel this
// CPU has: shapes across the panel (32 columns), block (256 steps), task (96 rows) and tile edges, transposed and
// strided operands, values of spread magnitudes (every reordering of such sums changes bits: checked) and special
// values, and any thread count.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include <parity/oracles/ascending_gemm.hpp>
#include <parity/oracles/tests/gemm_operands.hpp>

namespace parity::oracles {
namespace {

using testing::at;
using testing::kernels;
using testing::make_operand;
using testing::Operand;
using testing::Shape;

// With `specials`, about one element of a row or column of k in 8 special (so most sums of a long
// reduction stay finite).
Operand make(std::int64_t rows, std::int64_t cols, bool trans, std::int64_t pad, std::mt19937_64& gen, bool specials,
             std::int64_t k = 1) {
  std::normal_distribution<double> d(0.0, 1.0);
  std::uniform_int_distribution<int> e(-40, 40);
  // Six special kinds among 48 k draws: a sum of k products meets about one special in 8.
  std::uniform_int_distribution<std::int64_t> pick(0, 48 * std::max<std::int64_t>(1, k) - 1);
  return make_operand(rows, cols, trans, pad, [&] {
    double x = std::ldexp(d(gen), e(gen));  // magnitudes over 2^80: the order of the additions shows
    if (!specials) return x;
    switch (pick(gen)) {
      case 0:
        x = std::numeric_limits<double>::quiet_NaN();
        break;
      case 1:
        x = std::numeric_limits<double>::infinity();
        break;
      case 2:
        x = -std::numeric_limits<double>::infinity();
        break;
      case 3:
        x = -0.0;
        break;
      case 4:
        x = std::numeric_limits<double>::denorm_min() * 3;
        break;
      case 5:
        x = std::numeric_limits<double>::max() / 2;
        break;
      default:
        break;
    }
    return x;
  });
}

std::vector<double> loop(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a,
                         const GemmOperand<double>& b, bool reversed = false, bool magnitudes = false) {
  std::vector<double> c(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::int64_t t = 0; t < k; ++t) {
        const std::int64_t l = reversed ? k - 1 - t : t;
        s += magnitudes ? std::fabs(at(a, i, l)) * std::fabs(at(b, l, j)) : at(a, i, l) * at(b, l, j);
      }
      c[static_cast<std::size_t>(i * n + j)] = s;
    }
  return c;
}

bool same(double x, double y) {
  return (std::isnan(x) && std::isnan(y)) || std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
}

// The outputs checked, and of them the finite ones.
struct Counts {
  std::size_t outputs = 0, finite = 0;
};

Counts check(const Shape& s, bool trans_a, bool trans_b, bool specials, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  const Operand a = make(s.m, s.k, trans_a, 3, gen, specials, s.k), b = make(s.k, s.n, trans_b, 5, gen, specials, s.k);
  const std::vector<double> want = loop(s.m, s.n, s.k, a.view, b.view),
                            want_mags = loop(s.m, s.n, s.k, a.view, b.view, false, true);
  const auto expect = [&](const std::vector<double>& got, const std::vector<double>& loop_bits, const char* what,
                          Isa isa) {
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_TRUE(same(got[i], loop_bits[i]))
          << what << " on " << isa_name(isa) << " m=" << s.m << " n=" << s.n << " k=" << s.k << " trans " << trans_a
          << trans_b << " element " << i << ": " << got[i] << " against the loop's " << loop_bits[i];
  };
  for (const Isa isa : kernels()) {
    std::vector<double> got(want.size(), 7.0), both(want.size(), 7.0), mags(want.size(), 7.0);
    ascending_gemm(s.m, s.n, s.k, a.view, b.view, got.data(), isa);
    expect(got, want, "values", isa);
    ascending_gemm_with_magnitudes(s.m, s.n, s.k, a.view, b.view, both.data(), mags.data(), isa);
    expect(both, want, "values beside magnitudes", isa);
    expect(mags, want_mags, "magnitudes", isa);
  }
  Counts n{want.size(), 0};
  for (const double x : want) n.finite += std::isfinite(x);
  return n;
}

// m: every tile of rows and remainder (1 to 5 past a multiple of 6 or 3; 4 and 10 leave four), a
// task of 96 and more; n: a panel of 32, part of one, several; k: 0, blocks of 256 and parts.
const std::vector<Shape> kShapes = {{1, 1, 1},    {1, 1, 0},    {3, 5, 0},     {7, 33, 257}, {6, 32, 256},
                                    {13, 31, 9},  {97, 65, 70}, {192, 3, 513}, {5, 100, 1},  {2, 64, 1000},
                                    {4, 40, 300}, {10, 7, 30},  {16, 70, 600}, {8, 33, 2}};

TEST(AscendingGemm, EqualsTheScalarLoopBitForBit) {
  std::uint64_t seed = 1;
  for (const Shape& s : kShapes)
    for (const bool ta : {false, true})
      for (const bool tb : {false, true}) check(s, ta, tb, false, seed++);
}

TEST(AscendingGemm, SpecialValuesPropagateAsTheLoopsDo) {
  std::uint64_t seed = 100;
  Counts all;
  for (const Shape& s : kShapes)
    for (const bool ta : {false, true})
      for (const bool tb : {false, true}) {
        const Counts n = check(s, ta, tb, true, seed++);
        all.outputs += n.outputs;
        all.finite += n.finite;
      }
  // Both kinds compared: finite sums that met -0, subnormals or max / 2, and non-finite ones.
  EXPECT_GT(all.finite, all.outputs / 2);
  EXPECT_GT(all.outputs - all.finite, all.outputs / 50);
}

// The data above tells orders apart: summing in the other direction changes most elements, so
// a kernel that reordered the additions (a tree, a split over l, a block reversed) would fail.
TEST(AscendingGemm, TheTestDataDistinguishesSummationOrders) {
  std::mt19937_64 gen(7);
  const Shape s{7, 33, 257};
  const Operand a = make(s.m, s.k, false, 0, gen, false), b = make(s.k, s.n, false, 0, gen, false);
  const std::vector<double> up = loop(s.m, s.n, s.k, a.view, b.view), down = loop(s.m, s.n, s.k, a.view, b.view, true);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < up.size(); ++i) differ += !same(up[i], down[i]);
  EXPECT_GT(differ, up.size() / 2);
}

TEST(AscendingGemm, TheBitsDoNotDependOnTheThreadCount) {
  std::mt19937_64 gen(11);
  const Shape s{300, 200, 600};
  const Operand a = make(s.m, s.k, false, 0, gen, false), b = make(s.k, s.n, true, 0, gen, false);
  std::vector<std::vector<double>> runs;
  for (const char* threads : {"1", "2", "5"}) {
    ::setenv("PARITY_THREADS", threads, 1);
    runs.emplace_back(static_cast<std::size_t>(s.m * s.n));
    ascending_gemm(s.m, s.n, s.k, a.view, b.view, runs.back().data());
  }
  ::unsetenv("PARITY_THREADS");
  const std::vector<double> want = loop(s.m, s.n, s.k, a.view, b.view);
  for (const auto& run : runs)
    for (std::size_t i = 0; i < want.size(); ++i) ASSERT_TRUE(same(run[i], want[i])) << "element " << i;
}

}  // namespace
}  // namespace parity::oracles
