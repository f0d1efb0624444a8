#pragma once
// What the model's primitive tests share: parity's host primitives, and the check of a result
// against a float64 reference and its derived per-element bound.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/tensor.hpp>
#include <parity/families/model/routines/primitives.hpp>

namespace parity::model::test {

// parity's primitives on the host (the host twins of the ops' kernels).
inline const Primitives& host() { return primitives(runtime::Backend::host); }

// A gtest failure unless every element of `got` lies within `bound` of `ref`: it names what was
// checked, how many elements lie outside and the first one's index.
inline void expect_within(const Tensor& got, const std::vector<double>& ref, const std::vector<double>& bound,
                          const std::string& what) {
  const BoundCheck c = check_bound(got.values(), ref, bound);
  EXPECT_TRUE(c.holds()) << what << ": " << c.violations << " elements outside the bound; first at "
                         << index_text(c.first_violation, got.shape());
}

}  // namespace parity::model::test
