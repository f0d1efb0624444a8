#include <parity/families/trajectory/trajectory_straddle.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/random_fill.hpp>

namespace parity::properties::trajectory {
namespace {

// The bf16 rounding midpoint nearest to c (exactly representable in float32).
float nearest_midpoint(float c) {
  const float b = round_through_bf16(c);
  std::uint32_t bits;
  std::memcpy(&bits, &b, sizeof bits);
  const std::uint32_t up_bits = bits + 0x10000u, down_bits = bits - 0x10000u;
  float up, down;
  std::memcpy(&up, &up_bits, sizeof up);
  std::memcpy(&down, &down_bits, sizeof down);
  const float m_up = b + (up - b) * 0.5f, m_down = b + (down - b) * 0.5f;
  return std::fabs(m_up - c) < std::fabs(m_down - c) ? m_up : m_down;
}

// A float32 x with round_through_bf16(x) == u and x + d == m (float32), near m - d.
bool solve(float u, float d, float m, float* x) {
  float candidate = m - d;
  for (int step = 0; step < 16; ++step) {
    for (float c : {candidate, std::nextafter(candidate, 1e30f), std::nextafter(candidate, -1e30f)})
      if (std::isfinite(c) && bf16_from_float_rne(c) == bf16_from_float_rne(u) && c + d == m) {
        *x = c;
        return true;
      }
    candidate = std::nextafter(candidate, (candidate + d < m) ? 1e30f : -1e30f);
  }
  return false;
}

}  // namespace

int place_straddles(Tensor& x0, const Tensor& v0, float dt, int count, std::uint64_t seed) {
  const std::int64_t n = x0.numel();
  // A Philox-keyed order of the elements (sort by draw).
  std::vector<std::pair<std::uint64_t, std::int64_t>> order;
  for (std::int64_t k = 0; k < n; ++k) order.push_back({philox_bits(seed, 77, static_cast<std::uint64_t>(k)), k});
  std::sort(order.begin(), order.end());
  int placed = 0;
  for (const auto& [key, k] : order) {
    if (placed >= count) break;
    const float x = static_cast<float>(x0.value_at(k));
    const float u = round_through_bf16(x);
    const float d = dt * static_cast<float>(v0.value_at(k));
    float patched;
    if (solve(u, d, nearest_midpoint(u + d), &patched)) {
      x0.set_value(k, patched);
      ++placed;
    }
  }
  return placed;
}

}  // namespace parity::properties::trajectory
