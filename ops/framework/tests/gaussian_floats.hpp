#pragma once
// Test inputs of a matrix product: n float32 values drawn N(0, scale) from seed `seed`, as doubles
// (float32 operands: every product exact in double).
#include <cstdint>
#include <random>
#include <vector>

namespace parity::ops::testing {

inline std::vector<double> gaussian_floats(std::size_t n, std::uint32_t seed, double scale) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d(0.0f, static_cast<float>(scale));
  std::vector<double> v(n);
  for (auto& x : v) x = d(gen);
  return v;
}

}  // namespace parity::ops::testing
