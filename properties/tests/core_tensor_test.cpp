// Tensor storage, strides and Layout placement.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

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

// The bits of storage element `at` of `t`, whatever its dtype's width.
std::uint64_t storage_word(const Tensor& t, std::int64_t at) {
  std::uint64_t w = 0;
  const std::size_t width = dtype_size(t.dtype());
  std::memcpy(&w, t.storage_bytes().data() + static_cast<std::size_t>(at) * width, width);
  return w;
}

// Every dtype's width, with empty tensors among the shapes: each element lands where the strides
// say with its own bits, and every other storage element holds the dtype's NaN padding (a
// kernel that reads outside its operand reads NaN).
TEST(Layout, EveryDtypePlacesItsElementsAndPadsTheRestWithNaN) {
  for (DType dtype : {DType::f32, DType::bf16, DType::f16, DType::f64})
    for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{{3, 5}, {1, 1}, {0, 4}, {4, 0}})
      for (bool transposed : {false, true})
        for (std::int64_t pad : {0, 3})
          for (std::int64_t offset : {0, 2}) {
            const Layout l{transposed, pad, offset};
            const Tensor logical = counting(dtype, rows, cols);
            const Tensor placed = l.place(logical);
            const std::string where = std::string(dtype_name(dtype)) + " " + std::to_string(rows) + "x" +
                                      std::to_string(cols) + " " + l.name();
            ASSERT_EQ(static_cast<double>(placed.storage_elements()), l.storage_elements(rows, cols)) << where;
            std::vector<bool> holds_element(static_cast<std::size_t>(placed.storage_elements()), false);
            for (std::int64_t r = 0; r < rows; ++r)
              for (std::int64_t c = 0; c < cols; ++c) {
                const std::int64_t at = placed.offset() + r * placed.strides()[0] + c * placed.strides()[1];
                holds_element[static_cast<std::size_t>(at)] = true;
                EXPECT_EQ(storage_word(placed, at), logical.bits_at(r * cols + c))
                    << where << " (" << r << ", " << c << ")";
              }
            for (std::int64_t at = 0; at < placed.storage_elements(); ++at) {
              if (holds_element[static_cast<std::size_t>(at)]) continue;
              Tensor one = Tensor::zeros(dtype, {1});
              one.set_bits(0, storage_word(placed, at));
              EXPECT_TRUE(std::isnan(one.value_at(0))) << where << " storage element " << at;
            }
          }
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
