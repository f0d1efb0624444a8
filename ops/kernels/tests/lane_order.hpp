#pragma once
// The reduction order of lane_sum.cuh written out in full, for tests to compare a kernel's sums
// with: term i added to lane i % lanes (each lane from +0.0f, its terms in ascending order), then
// every lane folded pairwise, empty ones included (stride lanes / 2, ..., 1: lane j += lane j +
// stride).
#include <cstdint>
#include <vector>

#include <parity/ops/kernels/lane_sum.cuh>

namespace parity::ops::kernels {

// The float sum of term(0), ..., term(n - 1) in that order; `lanes` a power of two.
template <class Term>
float lane_order_sum(const Term& term, std::int64_t n, int lanes = kLanes) {
  std::vector<float> sums(static_cast<std::size_t>(lanes), 0.0f);
  for (std::int64_t i = 0; i < n; ++i) {
    float& s = sums[static_cast<std::size_t>(i % lanes)];
    s = s + term(i);
  }
  for (int stride = lanes / 2; stride >= 1; stride /= 2)
    for (int j = 0; j < stride; ++j) sums[static_cast<std::size_t>(j)] += sums[static_cast<std::size_t>(j + stride)];
  return sums[0];
}

}  // namespace parity::ops::kernels
