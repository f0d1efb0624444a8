// Element maps (core/element_map.hpp): max-pooling to the cap, the builders from two tensors and
// from err/bound spans (core/compare.hpp), and their JSON inside a verdict's, malformed input
// refused naming the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/compare.hpp>
#include <parity/core/element_map.hpp>
#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/core/verdict.hpp>

namespace parity {
namespace {

using nlohmann::json;

TEST(ElementMap, SmallMapsKeepEveryElement) {
  const std::vector<double> v = {0, 1, 0, 0, 0, 1};
  const ElementMap m = element_map("y", MapMeasure::bits_differ, 2, 3, v);
  EXPECT_EQ(m.cell_rows, 2);
  EXPECT_EQ(m.cell_cols, 3);
  EXPECT_EQ(m.cells, v);
}

// A 130 x 16384 view pools to 64 x 256 cells, each the maximum of its block: one element set in
// row 129, element 16383 marks the last cell alone; NaN (not measured) only where a whole block is.
TEST(ElementMap, PoolsByTheMaximumToTheCap) {
  const std::int64_t rows = 130, cols = 16384;
  std::vector<double> v(static_cast<std::size_t>(rows * cols), 0.0);
  v.back() = 3.5;
  v[static_cast<std::size_t>(5 * cols + 70)] = 0.25;
  for (std::int64_t c = 0; c < cols; ++c) v[static_cast<std::size_t>(c)] = NAN;  // row 0 not measured
  const ElementMap m = element_map("y", MapMeasure::error_over_bound, rows, cols, v);
  ASSERT_EQ(m.cell_rows, kMapRows);
  ASSERT_EQ(m.cell_cols, kMapCols);
  EXPECT_EQ(m.at(kMapRows - 1, kMapCols - 1), 3.5);
  // Row 5 lies in the cell row whose range holds it; element 70 in column 70 / (16384 / 256).
  std::int64_t row_cell = 0;
  while (row_cell + 1 < m.cell_rows && m.first_row(row_cell + 1) <= 5) ++row_cell;
  EXPECT_EQ(m.at(row_cell, 70 / (cols / kMapCols)), 0.25);
  double total = 0;
  for (std::int64_t i = 0; i < m.cell_rows; ++i)
    for (std::int64_t j = 0; j < m.cell_cols; ++j)
      if (!std::isnan(m.at(i, j))) total += m.at(i, j);
  EXPECT_EQ(total, 3.75);  // nothing else marked
  // Rows 0 and 1 share cell row 0 (130 rows in 64): row 1 was measured, so the cell is 0, not NaN.
  EXPECT_EQ(m.first_row(1), 2);
  EXPECT_EQ(m.at(0, 0), 0.0);
  EXPECT_THROW(element_map("y", MapMeasure::bits_differ, 2, 3, v), std::invalid_argument);
}

// Every cell is the maximum over exactly the block [first_row(i), first_row(i + 1)) x
// [first_col(j), first_col(j + 1)), for extents that divide the grid and extents that do not
// (130 rows in 64 cells, 300 columns in 256): each element its own value, so a block one element
// too wide or too narrow gives another maximum somewhere.
TEST(ElementMap, EachCellIsTheMaximumOfItsBlock) {
  for (const auto& [rows, cols] : {std::pair<std::int64_t, std::int64_t>{130, 300}, {64, 512}, {3, 257}, {65, 256}}) {
    std::vector<double> v(static_cast<std::size_t>(rows * cols));
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t c = 0; c < cols; ++c)  // a value that peaks inside blocks, not at their ends
        v[static_cast<std::size_t>(r * cols + c)] = static_cast<double>((r * 7919 + c * 104729) % 1000);
    const ElementMap m = element_map("y", MapMeasure::error_over_bound, rows, cols, v);
    for (std::int64_t i = 0; i < m.cell_rows; ++i)
      for (std::int64_t j = 0; j < m.cell_cols; ++j) {
        const std::int64_t r1 = i + 1 < m.cell_rows ? m.first_row(i + 1) : rows;
        const std::int64_t c1 = j + 1 < m.cell_cols ? m.first_col(j + 1) : cols;
        double top = -1;
        for (std::int64_t r = m.first_row(i); r < r1; ++r)
          for (std::int64_t c = m.first_col(j); c < c1; ++c)
            top = std::max(top, v[static_cast<std::size_t>(r * cols + c)]);
        ASSERT_EQ(m.at(i, j), top) << rows << " x " << cols << " cell " << i << ", " << j;
      }
  }
}

TEST(ElementMap, AWholeUnmeasuredBlockStaysNaN) {
  const std::vector<double> v = {NAN, NAN, 0, 1};
  const ElementMap m = element_map("y", MapMeasure::bits_differ, 2, 2, v);
  EXPECT_TRUE(std::isnan(m.at(0, 0)));
  EXPECT_EQ(m.at(1, 1), 1.0);
}

// Cells keep 3 significant digits, rounded up: one just above the bound stays above it.
TEST(ElementMap, CellsRoundUpToThreeDigits) {
  const std::vector<double> v = {1.0000001, 0.12345, 2.0};
  const ElementMap m = element_map("y", MapMeasure::error_over_bound, 1, 3, v);
  EXPECT_GT(m.cells[0], 1.0);
  EXPECT_EQ(m.cells[1], 0.124);
  EXPECT_EQ(m.cells[2], 2.0);
}

TEST(ElementMap, BuiltFromTwoTensorsMarksTheDifferingElements) {
  Tensor a = Tensor::zeros(DType::f32, {3, 4}), b = Tensor::zeros(DType::f32, {3, 4});
  b.set_bits(2 * 4 + 1, 0x3F800000);  // [2, 1]
  const ElementMap m = element_map_of("y", MapMeasure::bits_differ, a.shape(), bits_differ(a, b));
  EXPECT_EQ(m.rows, 3);
  EXPECT_EQ(m.cols, 4);
  for (std::int64_t i = 0; i < 3; ++i)
    for (std::int64_t j = 0; j < 4; ++j) EXPECT_EQ(m.at(i, j), i == 2 && j == 1 ? 1.0 : 0.0) << i << ", " << j;
}

// A vector (one row of elements) is one row of cells, elements across, not a column of rows; a
// long one pools across, and a scalar is one cell.
TEST(ElementMap, AVectorIsOneRowOfItsElements) {
  Tensor a = Tensor::zeros(DType::f32, {5}), b = Tensor::zeros(DType::f32, {5});
  b.set_bits(3, 0x3F800000);
  const ElementMap m = element_map_of("y", MapMeasure::bits_differ, a.shape(), bits_differ(a, b));
  EXPECT_EQ(m.rows, 1);
  EXPECT_EQ(m.cols, 5);
  ASSERT_EQ(m.cell_rows, 1);
  ASSERT_EQ(m.cell_cols, 5);
  for (std::int64_t j = 0; j < 5; ++j) EXPECT_EQ(m.at(0, j), j == 3 ? 1.0 : 0.0) << j;
  const std::vector<double> wide(1000, 0.5);
  const ElementMap w = element_map_of("y", MapMeasure::error_over_bound, {1000}, wide);
  EXPECT_EQ(w.cell_rows, 1);
  EXPECT_EQ(w.cell_cols, kMapCols);
  const ElementMap scalar = element_map_of("loss", MapMeasure::error_over_bound, {}, std::vector<double>{2.0});
  EXPECT_EQ(scalar.cells, std::vector<double>{2.0});
  EXPECT_EQ(scalar.cell_rows, 1);
  // A matrix keeps its leading extent as rows.
  EXPECT_EQ(element_map_of("y", MapMeasure::bits_differ, {5, 1}, bits_differ(a, b)).cell_rows, 5);
}

TEST(ElementMap, ErrorOverBoundFollowsCheckBound) {
  const std::vector<double> got = {1.0, 2.5, INFINITY, 7.0}, ref = {1.0, 2.0, 1.0, 3.0},
                            bound = {0.1, 0.25, 1.0, INFINITY};
  const std::vector<double> r = error_over_bound(got, ref, bound);
  EXPECT_EQ(r, (std::vector<double>{0.0, 2.0, INFINITY, 0.0}));
  EXPECT_EQ(check_bound(got, ref, bound).violations, 2);
}

TEST(ElementMap, TravelsInAVerdictsJson) {
  Verdict v = Verdict::fail("rows_independent", "row 1 differs");
  v.map = element_map("y", MapMeasure::error_over_bound, 2, 2, std::vector<double>{0, INFINITY, NAN, 0.5});
  const json j = verdict_to_json(v);
  EXPECT_EQ(j["map"]["measure"], "error_over_bound");
  EXPECT_EQ(j["map"]["cells"][1], "inf");
  EXPECT_EQ(verdict_from_json(j), v);
  EXPECT_FALSE(verdict_to_json(Verdict::fail("p", "d")).contains("map"));
  EXPECT_FALSE(verdict_from_json(verdict_to_json(Verdict::fail("p", "d"))).map);
}

std::string refusal(const json& j) {
  return input_error_message([&] { verdict_from_json(j, "observed"); }, "accepted");
}

TEST(ElementMap, AMalformedMapIsRefusedNamingTheField) {
  Verdict v = Verdict::fail("p", "d");
  v.map = element_map("y", MapMeasure::bits_differ, 1, 2, std::vector<double>{0, 1});
  const json good = verdict_to_json(v);
  json bad = good;
  bad["map"]["measure"] = "ulps";
  EXPECT_EQ(refusal(bad), "observed.map.measure: expected bits_differ or error_over_bound");
  bad = good;
  bad["map"]["cells"] = {0};
  EXPECT_EQ(refusal(bad), "observed.map.cells: expected 2 values (1 x 2), not 1");
  bad = good;
  bad["map"]["cells"][1] = "one";
  EXPECT_EQ(refusal(bad), "observed.map.cells[1]: expected a number");
  bad = good;
  bad["map"]["cell_cols"] = 5;
  EXPECT_EQ(refusal(bad), "observed.map.cell_cols: expected 2");
  bad = good;
  bad["map"].erase("rows");
  EXPECT_EQ(refusal(bad), "observed.map.rows: missing field");
  bad = good;
  bad["map"] = 3;
  EXPECT_EQ(refusal(bad), "observed.map: expected an object");
  bad = good;  // a view whose cell boundaries would overflow int64
  bad["map"]["cols"] = INT64_MAX / 2;
  bad["map"]["cell_cols"] = kMapCols;
  EXPECT_EQ(refusal(bad), "observed.map.cols: expected 1 to " + std::to_string(INT64_MAX / kMapCols));
}

// A cell its measure can never hold is refused naming its index: a bits_differ cell is a pooled
// 0/1 flag (or nan), an error_over_bound cell a pooled |error| / bound, >= 0 (inf and nan allowed).
TEST(ElementMap, ACellItsMeasureCannotHoldIsRefused) {
  Verdict v = Verdict::fail("p", "d");
  v.map = element_map("y", MapMeasure::bits_differ, 1, 3, std::vector<double>{0, 1, NAN});
  const json bits = verdict_to_json(v);
  EXPECT_EQ(refusal(bits), "accepted");
  const auto bits_with = [&](const json& cell) {
    json bad = bits;
    bad["map"]["cells"][2] = cell;
    return refusal(bad);
  };
  EXPECT_EQ(bits_with(0.5), "observed.map.cells[2]: expected 0, 1 or nan (bits_differ), not 0.5");
  EXPECT_EQ(bits_with(-1), "observed.map.cells[2]: expected 0, 1 or nan (bits_differ), not -1");
  EXPECT_EQ(bits_with(2), "observed.map.cells[2]: expected 0, 1 or nan (bits_differ), not 2");
  EXPECT_EQ(bits_with("inf"), "observed.map.cells[2]: expected 0, 1 or nan (bits_differ), not \"inf\"");
  EXPECT_EQ(bits_with("-inf"), "observed.map.cells[2]: expected 0, 1 or nan (bits_differ), not \"-inf\"");

  v.map = element_map("y", MapMeasure::error_over_bound, 1, 4, std::vector<double>{0, 0.25, INFINITY, NAN});
  const json ratio = verdict_to_json(v);
  EXPECT_EQ(refusal(ratio), "accepted");
  const auto ratio_with = [&](const json& cell) {
    json bad = ratio;
    bad["map"]["cells"][1] = cell;
    return refusal(bad);
  };
  EXPECT_EQ(ratio_with(-0.5), "observed.map.cells[1]: expected a number >= 0, inf or nan (error_over_bound), not -0.5");
  EXPECT_EQ(ratio_with("-inf"),
            "observed.map.cells[1]: expected a number >= 0, inf or nan (error_over_bound), not \"-inf\"");
  EXPECT_EQ(ratio_with(1e300), "accepted");  // far outside the bound, but a ratio
}

}  // namespace
}  // namespace parity
