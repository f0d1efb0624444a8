// Philox known answers (Random123's kat_vectors) and the deterministic normal draw.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include <parity/core/detmath.hpp>
#include <parity/core/philox.hpp>
#include <parity/core/random_fill.hpp>

namespace parity {
namespace {

TEST(Philox, KnownAnswers) {
  using W = std::array<std::uint32_t, 4>;
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}), (W{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
            (W{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
            (W{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(DetMath, LogAndSinCosAgreeWithLibm) {
  for (double x : {1e-300, 4.9e-324, 0.1, 0.5, 0.7071, 1.0, 1.5, 2.0, 3.0, 1e10, 1.7e308}) {
    EXPECT_NEAR(detmath::log(x), std::log(x), 4e-16 * std::fabs(std::log(x)) + 1e-300) << x;
  }
  for (int i = 0; i < 1000; ++i) {
    const double t = i / 1000.0;
    double s, c;
    detmath::sincos_2pi(t, &s, &c);
    EXPECT_NEAR(s, std::sin(2 * M_PI * t), 1e-15) << t;
    EXPECT_NEAR(c, std::cos(2 * M_PI * t), 1e-15) << t;
  }
}

TEST(PhiloxNormal, MomentsAndDeterminism) {
  double sum = 0, sum2 = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double z = philox_normal(42, 1, static_cast<std::uint64_t>(i));
    sum += z;
    sum2 += z * z;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(sum2 / n, 1.0, 0.01);
  EXPECT_EQ(philox_normal(7, 3, 12345), philox_normal(7, 3, 12345));
  EXPECT_NE(philox_normal(7, 3, 12345), philox_normal(7, 4, 12345));
}

// The batch draw is the scalar one, bit for bit, on whichever kernel this CPU takes: counts
// that are and are not multiples of the vector width, and indices whose high word carries.
TEST(PhiloxNormals, EqualScalarDrawsBitForBit) {
  struct Range {
    std::uint64_t seed;
    std::uint32_t stream;
    std::uint64_t first;
    std::int64_t count;
  };
  for (const Range& r : {Range{42, 1, 0, 100003}, Range{0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFu, 0xFFFFFFFFull - 37, 80},
                         Range{7, 3, 12345, 7}, Range{2024, 6, (std::uint64_t{1} << 40) + 3, 20001}}) {
    std::vector<double> batch(static_cast<std::size_t>(r.count));
    philox_normals(r.seed, r.stream, r.first, r.count, batch.data());
    for (std::int64_t i = 0; i < r.count; ++i) {
      const double scalar = philox_normal(r.seed, r.stream, r.first + static_cast<std::uint64_t>(i));
      ASSERT_EQ(std::bit_cast<std::uint64_t>(batch[static_cast<std::size_t>(i)]), std::bit_cast<std::uint64_t>(scalar))
          << "seed " << r.seed << " stream " << r.stream << " index " << r.first + static_cast<std::uint64_t>(i) << ": "
          << batch[static_cast<std::size_t>(i)] << " against " << scalar;
    }
  }
}

}  // namespace
}  // namespace parity
