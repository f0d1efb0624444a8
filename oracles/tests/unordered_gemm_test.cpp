// unordered_gemm against its contract on every kernel this CPU has and on the BLAS's layouts:
// with integer data (every sum exact in any order) the values are the exact sums and the parts'
// magnitudes are those of the partition the header names, across tile (6 x 4, 4 x 3, 2 x 2),
// task (96 rows, 32 columns), chunk (256 terms) and lane edges; with spread magnitudes, the
// value within gamma_k X of the exact sum and the parts' magnitudes within the header's upper
// bound and above |c|; special values; and the same bits for any thread count.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include <parity/oracles/tests/gemm_operands.hpp>
#include <parity/oracles/unordered_gemm.hpp>

namespace parity::oracles {
namespace {

using testing::at;
using testing::kernels;
using testing::make_operand;
using testing::Operand;
using testing::Shape;

int lanes(Isa isa) { return isa == Isa::avx512 ? 8 : isa == Isa::avx2 ? 4 : 2; }

// The part term l belongs to: the own kernel's lane, or the BLAS layouts' block of
// four consecutive ones.
std::int64_t part_of(std::int64_t l, std::int64_t k, bool own, Isa isa) {
  if (own) return l % lanes(isa);
  const std::int64_t blocks = std::min<std::int64_t>(4, k);
  for (std::int64_t b = 0; b + 1 < blocks; ++b)
    if (l < k * (b + 1) / blocks) return b;
  return blocks - 1;
}

struct Outputs {
  std::vector<double> c, mags;
};

Outputs product(const Shape& s, const Operand& a, const Operand& b, Isa isa) {
  Outputs r{std::vector<double>(static_cast<std::size_t>(s.m * s.n), 7.0),
            std::vector<double>(static_cast<std::size_t>(s.m * s.n), 7.0)};
  unordered_gemm(s.m, s.n, s.k, a.view, b.view, r.c.data(), r.mags.data(), isa);
  return r;
}

// m: every tile's rows and remainders, a task of 96 and more; n: tiles of 4 and 3 with
// remainders, a panel of 32 and more; k: 0, lane tails, chunks of 256 and their remainders.
const std::vector<Shape> kShapes = {{1, 1, 1},    {1, 1, 0},    {3, 5, 0},      {7, 33, 513}, {6, 32, 512},
                                    {13, 31, 9},  {97, 65, 70}, {192, 3, 1025}, {5, 100, 1},  {2, 64, 1000},
                                    {4, 40, 300}, {10, 7, 30},  {16, 70, 600},  {8, 33, 2}};

TEST(UnorderedGemm, IntegerDataGivesExactSumsAndTheNamedPartition) {
  std::mt19937_64 gen(1);
  std::uniform_int_distribution<int> value(-1024, 1024);  // every partial sum an exact double
  const auto draw = [&] { return static_cast<double>(value(gen)); };
  for (const Shape& s : kShapes)
    for (const bool ta : {false, true})
      for (const bool tb : {false, true}) {
        const Operand a = make_operand(s.m, s.k, ta, 3, draw), b = make_operand(s.k, s.n, tb, 5, draw);
        const bool own = !ta && tb;
        for (const Isa isa : own ? kernels() : std::vector<Isa>{best_isa()}) {
          const Outputs got = product(s, a, b, isa);
          for (std::int64_t i = 0; i < s.m; ++i)
            for (std::int64_t j = 0; j < s.n; ++j) {
              double exact = 0;
              std::vector<double> parts(8, 0.0);
              for (std::int64_t l = 0; l < s.k; ++l) {
                exact += at(a.view, i, l) * at(b.view, l, j);
                parts[static_cast<std::size_t>(part_of(l, s.k, own, isa))] += at(a.view, i, l) * at(b.view, l, j);
              }
              double mags = 0;
              for (const double p : parts) mags += std::fabs(p);
              const auto e = static_cast<std::size_t>(i * s.n + j);
              ASSERT_EQ(got.c[e], exact) << isa_name(isa) << " m=" << s.m << " n=" << s.n << " k=" << s.k << " trans "
                                         << ta << tb << " element (" << i << ", " << j << ")";
              ASSERT_EQ(got.mags[e], mags) << isa_name(isa) << " m=" << s.m << " n=" << s.n << " k=" << s.k << " trans "
                                           << ta << tb << " element (" << i << ", " << j << ")";
            }
        }
      }
}

TEST(UnorderedGemm, ValuesAndPartsStayWithinTheirBoundsOverSpreadMagnitudes) {
  std::mt19937_64 gen(2);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  const auto draw = [&] { return std::ldexp(normal(gen), exponent(gen)); };
  for (const Shape& s : kShapes)
    for (const bool ta : {false, true})
      for (const bool tb : {false, true}) {
        const Operand a = make_operand(s.m, s.k, ta, 0, draw), b = make_operand(s.k, s.n, tb, 0, draw);
        for (const Isa isa : !ta && tb ? kernels() : std::vector<Isa>{best_isa()}) {
          const Outputs got = product(s, a, b, isa);
          const double kd = static_cast<double>(s.k), u = 0x1p-53;
          const double gamma_k = kd * u / (1 - kd * u), gamma_2k = 2 * kd * u / (1 - 2 * kd * u);
          for (std::int64_t i = 0; i < s.m; ++i)
            for (std::int64_t j = 0; j < s.n; ++j) {
              // The exact sum and X in long double (64 bits: their own error a relative k 2^-64,
              // taken by the factor on X below).
              long double exact = 0, x = 0;
              for (std::int64_t l = 0; l < s.k; ++l) {
                exact += static_cast<long double>(at(a.view, i, l)) * at(b.view, l, j);
                x += std::fabs(static_cast<long double>(at(a.view, i, l)) * at(b.view, l, j));
              }
              const double X = static_cast<double>(x) * (1 + kd * 0x1p-62), floor = 2 * kd * 0x1p-1074;
              const auto e = static_cast<std::size_t>(i * s.n + j);
              const std::string where = std::string(isa_name(isa)) + " m=" + std::to_string(s.m) +
                                        " k=" + std::to_string(s.k) + " element " + std::to_string(e);
              EXPECT_LE(std::fabs(static_cast<long double>(got.c[e]) - exact), gamma_k * X + floor) << where;
              EXPECT_LE(got.mags[e], (1 + gamma_2k) * X + floor) << where;
              // c = fl(sum S_p), mags = fl(sum |S_p|): |c| <= (1 + gamma_k) sum |S_p| <= (1 + gamma_k)^2 mags.
              EXPECT_GE(got.mags[e] * (1 + gamma_2k) * (1 + 2 * kd * u), std::fabs(got.c[e])) << where;
            }
        }
      }
}

TEST(UnorderedGemm, NonFiniteTermsGiveNonFiniteValuesAndParts) {
  std::mt19937_64 gen(3);
  std::uniform_int_distribution<int> pick(0, 399);
  const auto draw = [&] {
    const int p = pick(gen);
    return p == 0 ? std::numeric_limits<double>::quiet_NaN() : p == 1 ? std::numeric_limits<double>::infinity() : 1.0;
  };
  const Shape s{13, 31, 70};
  for (const bool own : {true, false}) {
    const Operand a = make_operand(s.m, s.k, false, 0, draw), b = make_operand(s.k, s.n, own, 0, draw);
    const Outputs got = product(s, a, b, best_isa());
    std::size_t special = 0;
    for (std::int64_t i = 0; i < s.m; ++i)
      for (std::int64_t j = 0; j < s.n; ++j) {
        bool finite = true;
        for (std::int64_t l = 0; l < s.k; ++l) finite = finite && std::isfinite(at(a.view, i, l) * at(b.view, l, j));
        const auto e = static_cast<std::size_t>(i * s.n + j);
        EXPECT_EQ(std::isfinite(got.c[e]), finite) << "element " << e;
        EXPECT_EQ(std::isfinite(got.mags[e]), finite) << "element " << e;
        special += !finite;
      }
    EXPECT_GT(special, 0U);
  }
}

TEST(UnorderedGemm, TheBitsDoNotDependOnTheThreadCount) {
  std::mt19937_64 gen(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  const auto draw = [&] { return normal(gen); };
  const Shape s{300, 200, 600};
  const Operand a = make_operand(s.m, s.k, false, 0, draw), b = make_operand(s.k, s.n, true, 0, draw);
  std::vector<Outputs> runs;
  for (const char* threads : {"1", "2", "5"}) {
    ::setenv("PARITY_THREADS", threads, 1);
    runs.push_back(product(s, a, b, best_isa()));
  }
  ::unsetenv("PARITY_THREADS");
  for (const Outputs& r : runs)
    for (std::size_t i = 0; i < r.c.size(); ++i) {
      ASSERT_EQ(std::bit_cast<std::uint64_t>(r.c[i]), std::bit_cast<std::uint64_t>(runs[0].c[i])) << "element " << i;
      ASSERT_EQ(std::bit_cast<std::uint64_t>(r.mags[i]), std::bit_cast<std::uint64_t>(runs[0].mags[i]));
    }
}

}  // namespace
}  // namespace parity::oracles
