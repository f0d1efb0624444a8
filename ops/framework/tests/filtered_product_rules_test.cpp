// filtered_product_rules (filtered_product_rules.hpp) on every instruction set this CPU has: the
// same bits of d and lo whatever the set and however a row is cut into calls (whole vectors and
// the lanes past them), in every combination of the arrays a product forms (norms or not, each
// operand's d norms, lo's Y), over values that reach every selection: non-finite values, sums and
// norms, sums below the floors, NaN and negative lo terms. And what the header promises of the
// non-finite: d infinite where the value or d is, lo finite where the constants are. And lo no
// larger than Bounded's E where the products' magnitudes are at the largest their sums may give;
// norms of d without those of M refused.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <parity/ops/framework/bounded.hpp>
#include <parity/ops/framework/filtered_product_rules.hpp>

namespace parity::ops {
namespace {

// Past every lane count's whole vectors (2, 4, 8) in each row.
constexpr std::int64_t kRuleRows = 3, kRuleCols = 77;
constexpr double kInf = std::numeric_limits<double>::infinity(), kNaN = std::numeric_limits<double>::quiet_NaN();

// A draw that is now and then one of the values the rules select on.
double draw(std::mt19937_64& rng, bool non_negative) {
  std::uniform_real_distribution<double> mantissa(0.5, 1.0);
  std::uniform_int_distribution<int> exponent(-1074, 60), pick(0, 15);
  switch (pick(rng)) {
    case 0:
      return kInf;
    case 1:
      return kNaN;
    case 2:
      return non_negative ? 0.0 : -kInf;
    case 3:
      return 0x1p-1074 * static_cast<double>(pick(rng));  // at or below a floor
    default:
      break;
  }
  const double x = std::ldexp(mantissa(rng), exponent(rng) / 8);
  return non_negative || pick(rng) < 8 ? x : -x;
}

std::vector<double> draws(std::mt19937_64& rng, std::int64_t count, bool non_negative) {
  std::vector<double> v(static_cast<std::size_t>(count));
  for (double& x : v) x = draw(rng, non_negative);
  return v;
}

struct Arrays {
  std::vector<double> values, sums, lo_errs, norm_a, norm_b, dev_norm_a, dev_norm_b;
};

Arrays arrays(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Arrays a;
  a.values = draws(rng, kRuleRows * kRuleCols, false);
  a.sums = draws(rng, kRuleRows * kRuleCols, false);  // a negative sum: below the floor, as 0
  a.lo_errs = draws(rng, kRuleRows * kRuleCols, false);
  a.norm_a = draws(rng, kRuleRows, true);
  a.norm_b = draws(rng, kRuleCols, true);
  a.dev_norm_a = draws(rng, kRuleRows, true);
  a.dev_norm_b = draws(rng, kRuleCols, true);
  return a;
}

// The rules of a product of k = 384 terms under the default arithmetic (float32, any order), as
// matmul_filtered forms them, with the arrays the flags name.
FilteredProductRules rules(const Arrays& a, bool norms, bool dev_a, bool dev_b, bool lo_errs) {
  static const Arithmetic arithmetic;
  FilteredProductRules r = filtered_product_constants(384, 0, false, arithmetic);
  r.values = a.values.data();
  r.sums = a.sums.data();
  if (lo_errs) r.lo_errs = a.lo_errs.data();
  if (norms) {
    r.norm_a = a.norm_a.data();
    r.norm_b = a.norm_b.data();
    if (dev_a) r.dev_norm_a = a.dev_norm_a.data();
    if (dev_b) r.dev_norm_b = a.dev_norm_b.data();
  }
  r.n = kRuleCols;
  return r;
}

// Every row's d and lo, each row cut into calls of `piece` elements.
struct Bounds {
  std::vector<double> d, lo;
};
Bounds run(const FilteredProductRules& r, Isa isa, std::int64_t piece) {
  Bounds b{std::vector<double>(kRuleRows * kRuleCols), std::vector<double>(kRuleRows * kRuleCols)};
  for (std::int64_t i = 0; i < kRuleRows; ++i)
    for (std::int64_t j0 = 0; j0 < kRuleCols; j0 += piece) {
      const std::int64_t j1 = std::min(kRuleCols, j0 + piece);
      filtered_product_rules(r, i, j0, j1, b.d.data() + i * kRuleCols + j0, b.lo.data() + i * kRuleCols + j0, isa);
    }
  return b;
}

std::vector<Isa> isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::portable, Isa::avx2, Isa::avx512})
    if (isa <= best_isa()) out.push_back(isa);
  return out;
}

TEST(FilteredProductRules, SameBitsOnEveryInstructionSetAndCut) {
  const Arrays a = arrays(11);
  for (int mask = 0; mask < 16; ++mask) {
    const bool norms = mask & 1, dev_a = mask & 2, dev_b = mask & 4, lo_errs = mask & 8;
    if (!norms && (dev_a || dev_b)) continue;  // d's norms come only with M's
    const FilteredProductRules r = rules(a, norms, dev_a, dev_b, lo_errs);
    const Bounds expected = run(r, Isa::portable, 1);  // one lane at a time
    for (Isa isa : isas())
      for (std::int64_t piece : {kRuleCols, std::int64_t{13}, std::int64_t{5}}) {
        const Bounds got = run(r, isa, piece);
        for (std::size_t e = 0; e < expected.d.size(); ++e) {
          ASSERT_EQ(std::bit_cast<std::uint64_t>(got.d[e]), std::bit_cast<std::uint64_t>(expected.d[e]))
              << "d of element " << e << " on " << isa_name(isa) << ", calls of " << piece << ", arrays " << mask;
          ASSERT_EQ(std::bit_cast<std::uint64_t>(got.lo[e]), std::bit_cast<std::uint64_t>(expected.lo[e]))
              << "lo of element " << e << " on " << isa_name(isa) << ", calls of " << piece << ", arrays " << mask;
        }
      }
  }
}

TEST(FilteredProductRules, NonFiniteValuesAndBoundsLeaveDInfinite) {
  const Arrays a = arrays(12);
  for (bool norms : {false, true}) {
    const FilteredProductRules r = rules(a, norms, norms, norms, true);
    const Bounds b = run(r, best_isa(), kRuleCols);
    std::int64_t infinite_values = 0, infinite_sums = 0;
    for (std::size_t e = 0; e < b.d.size(); ++e) {
      if (!std::isfinite(a.values[e])) {
        ++infinite_values;
        EXPECT_EQ(b.d[e], kInf) << "element " << e << " of value " << a.values[e];
      }
      if (!norms && std::isinf(a.sums[e])) {
        ++infinite_sums;
        EXPECT_EQ(b.d[e], kInf) << "element " << e << " of sum " << a.sums[e];
      }
      EXPECT_FALSE(std::isnan(b.d[e])) << "element " << e;
      // lo's selections take a NaN or negative X or Y to 0: lo is finite (and above 0, its
      // underflow terms) wherever neither is +Inf.
      if (a.sums[e] != kInf && a.lo_errs[e] != kInf) {
        EXPECT_TRUE(std::isfinite(b.lo[e]) && b.lo[e] > 0) << "element " << e;
      }
    }
    EXPECT_GT(infinite_values, 0);  // the draws reach the selection
    if (!norms) {
      EXPECT_GT(infinite_sums, 0);
    }
  }
}

TEST(FilteredProductRules, NormsOfDWithoutNormsOfMAreRefused) {
  const Arrays a = arrays(13);
  FilteredProductRules r = rules(a, false, false, false, false);
  r.dev_norm_b = a.dev_norm_b.data();
  double d[kRuleCols], lo[kRuleCols];
  EXPECT_THROW(filtered_product_rules(r, 0, 0, kRuleCols, d, lo), std::logic_error);
}

// lo's X and Y are taken down far enough: with the products' magnitudes, and their propagated
// errors, at the largest their GEMM or the parts' sums may give (matmul.hpp, unordered_gemm.hpp),
// lo is no larger than Bounded's E for those products. k equal terms a * 2^-10 of exact values
// (a = 1 exact, or with an error 2^-8: Y = k 2^-18), so X, Y and Bounded's E are exact up to a
// few roundings (its rules carry no margin) and lo sits within about 2^-49 of E: without the
// factor X and Y are taken down by, lo exceeds E by about k 2^-53 (2^-43 at k = 1024), far past
// lo's own 2^-50, and the check that lo stays within 2^-46 of E keeps the test able to see it.
TEST(FilteredProductRules, LoAtMostBoundedsEAtTheLargestSums) {
  struct Way {
    bool from_parts, with_error;
  };
  for (const Arithmetic& ar : {Arithmetic{}, Arithmetic{.reduction_lanes = 32}})
    for (std::int64_t k : {std::int64_t{4}, std::int64_t{1024}, std::int64_t{1} << 16})
      for (const Way way : {Way{false, false}, Way{true, false}, Way{false, true}}) {
        const double t = 0x1p-10, e = way.with_error ? 0x1p-8 : 0.0, u = 0x1p-53, kd = static_cast<double>(k);
        const double E = Bounded::sum(
                             k, [&](std::int64_t) { return Bounded(1.0, e, &ar) * Bounded(t, 0, &ar); }, ar)
                             .err();
        // X = sum Ma Mb with Ma = 1 + 2e, Y = sum Mb Ea. Their largest sums, rounded up: the parts'
        // (1 + gamma_2k) X, a GEMM's X / (1 - k u), plus their floors (2k and 4k 2^-1074, additions
        // that leave the bits of these sums).
        const double X = kd * (1 + 2 * e) * t, Y = kd * t * e;
        const double largest_x = way.from_parts ? X * (1 + 2 * kd * u / (1 - 2 * kd * u)) : X / (1 - kd * u);
        const double sum = std::nextafter(largest_x, kInf), value = kd * t;
        const double lo_err = std::nextafter(Y / (1 - kd * u), kInf);
        FilteredProductRules r = filtered_product_constants(k, 0, way.from_parts, ar);
        r.values = &value;
        r.sums = &sum;
        if (way.with_error) r.lo_errs = &lo_err;
        r.n = 1;
        double d = 0, lo = 0;
        filtered_product_rules(r, 0, 0, 1, &d, &lo);
        const std::string what = "k " + std::to_string(k) + (way.from_parts ? ", parts' sums" : ", a GEMM's sum") +
                                 (way.with_error ? " with Y" : "") + ", lanes " + std::to_string(ar.reduction_lanes);
        EXPECT_LE(lo, E) << what;
        EXPECT_GT(lo, E * (1 - 0x1p-46)) << what << ": lo is no longer tight enough for the test to see the factor";
      }
}

}  // namespace
}  // namespace parity::ops
