#pragma once
// The model's primitive tests' check of a result against a float64 reference and its derived
// per-element bound: a gtest failure naming what was checked, how many elements lie outside and
// the first one's index.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/tensor.hpp>

namespace parity::model::test {

inline void expect_within(const Tensor& got, const std::vector<double>& ref, const std::vector<double>& bound,
                          const std::string& what) {
  const BoundCheck c = check_bound(got.values(), ref, bound);
  EXPECT_TRUE(c.holds()) << what << ": " << c.violations << " elements outside the bound; first at "
                         << index_text(c.first_violation, got.shape());
}

}  // namespace parity::model::test
