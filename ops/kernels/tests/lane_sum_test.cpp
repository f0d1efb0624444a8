// host_lane_sum (ops/kernels/lane_sum.cuh) gives the bits of the documented order written out in
// full, all kLanes lanes folded, empty ones included: for every length around the lane count and
// terms that make the skipped folds matter if they were not the identity (-0.0f, infinities,
// NaN, overflow, subnormals).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/random_fill.hpp>
#include <parity/ops/kernels/lane_sum.cuh>
#include <parity/ops/kernels/tests/lane_order.hpp>

namespace parity::ops::kernels {
namespace {

TEST(HostLaneSum, EqualsTheFullFoldBitForBit) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  // Each pattern fills a row; `at` places one special value (or none) among random terms.
  const std::vector<float> specials{-0.0f, 0.0f, inf, -inf, nan, 3e38f, -3e38f, 1e-45f, -1e-45f};
  int cases = 0;
  for (const std::int64_t n : {0, 1, 2, 3, 5, 7, 16, 31, 64, 100, 128, 255, 256, 257, 300, 511, 512, 513, 1000}) {
    for (std::size_t s = 0; s <= specials.size(); ++s)
      for (const double scale : {1.0, 0.0}) {  // scale 0: every term a (signed) zero
        std::vector<float> t(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i)
          t[static_cast<std::size_t>(i)] =
              static_cast<float>(scale * philox_normal(7, static_cast<std::uint32_t>(s), i));
        if (scale == 0.0)
          for (std::int64_t i = 0; i < n; i += 2) t[static_cast<std::size_t>(i)] = -0.0f;
        if (s < specials.size() && n > 0) t[static_cast<std::size_t>(n / 2)] = specials[s];
        const auto term = [&](std::int64_t i) { return t[static_cast<std::size_t>(i)]; };
        EXPECT_EQ(float_bits(host_lane_sum(term, n)), float_bits(lane_order_sum(term, n)))
            << "n = " << n << ", special " << s << ", scale " << scale;
        ++cases;
      }
  }
  EXPECT_GT(cases, 0);
}

}  // namespace
}  // namespace parity::ops::kernels
