// Tensor storage, strides and Layout placement.
#include <gtest/gtest.h>

#include <cmath>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/core/layout.hpp>

namespace parity {
namespace {

Tensor counting(DType dtype, std::int64_t rows, std::int64_t cols) {
  Tensor t = Tensor::zeros(dtype, {rows, cols});
  for (std::int64_t i = 0; i < t.numel(); ++i) t.set_value(i, static_cast<double>(i) + 0.5);
  return t;
}

TEST(Layout, PlacesAndRecoversEveryLayout) {
  const Tensor logical = counting(DType::bf16, 3, 5);
  for (bool transposed : {false, true})
    for (std::int64_t pad : {0, 2})
      for (std::int64_t offset : {0, 7}) {
        const Layout l{transposed, pad, offset};
        const Tensor placed = l.place(logical);
        EXPECT_EQ(placed.is_contiguous(), l.is_contiguous()) << l.name();
        EXPECT_TRUE(compare_bitwise(placed.contiguous(), logical).equal()) << l.name();
        EXPECT_EQ(placed.value_at(1 * 5 + 2), logical.value_at(1 * 5 + 2)) << l.name();
      }
}

TEST(Layout, PaddingIsNaN) {
  const Tensor placed = Layout{false, 1, 2}.place(counting(DType::f32, 2, 2));
  EXPECT_EQ(placed.storage_elements(), 2 + 2 * 3);
  EXPECT_TRUE(std::isnan(placed.storage<float>()[0]));  // offset prefix
  EXPECT_TRUE(std::isnan(placed.storage<float>()[4]));  // pad after row 0
  const Layout transposed_padded{true, 3, 5};
  EXPECT_EQ(transposed_padded.name(), "transposed+pad3+off5");
}

TEST(Tensor, RowsAndBadExtents) {
  const Tensor t = counting(DType::f32, 4, 3);
  const Tensor r = t.rows(1, 3);
  const std::vector<std::int64_t> expected_shape{2, 3};
  EXPECT_EQ(r.shape(), expected_shape);
  EXPECT_EQ(r.value_at(0), 3.5);
  EXPECT_THROW(t.rows(2, 5), InputError);
  EXPECT_THROW(Tensor::zeros(DType::f32, {2, -1}), InputError);
  EXPECT_THROW(Tensor::strided(DType::f32, {2, 2}, {2, 1}, 0, 3), InputError);
}

}  // namespace
}  // namespace parity
