#pragma once
// A picture of where a failing verdict's output went wrong: one value per element of a rows x
// elements view of the output (its leading dimension by the product of the others; one row for a
// vector), max-pooled into at most kMapRows x kMapCols cells so that a 16384-wide row stays small.
// A report draws it (report/element_map_svg.hpp); it travels in the verdict's JSON as member "map".
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace parity {

// What a map's cell values measure.
enum class MapMeasure {
  bits_differ,      // 1 where the bits of the compared outputs differ, 0 where they agree
  error_over_bound  // |error| / bound: above 1 is outside the bound; inf where one side is non-finite
};

constexpr std::int64_t kMapRows = 64, kMapCols = 256;

struct ElementMap {
  std::string output;  // the output it shows, e.g. "y"
  MapMeasure measure = MapMeasure::bits_differ;
  std::int64_t rows = 0, cols = 0;            // the view it covers: rows x elements per row
  std::int64_t cell_rows = 0, cell_cols = 0;  // its grid: min(rows, kMapRows) x min(cols, kMapCols)
  // cell_rows * cell_cols values, row-major. Cell (i, j) is the maximum over rows
  // [i * rows / cell_rows, (i + 1) * rows / cell_rows) and the like range of elements; NaN where
  // no element of it was measured (e.g. a row a check did not compare). Rounded up to 3
  // significant digits, so that the JSON stays short and a cell above 1 (the bound) stays above it.
  std::vector<double> cells;

  // The rows [first, last) of the view that cell row i covers, and the elements of cell column j.
  std::int64_t first_row(std::int64_t i) const { return i * rows / cell_rows; }
  std::int64_t first_col(std::int64_t j) const { return j * cols / cell_cols; }
  double at(std::int64_t i, std::int64_t j) const { return cells[static_cast<std::size_t>(i * cell_cols + j)]; }

  friend bool operator==(const ElementMap& a, const ElementMap& b);
};

// The map of `values` (rows * cols of them, row-major; NaN: not measured), pooled by maximum
// (NaN only where every element of a cell is NaN). Requires rows, cols >= 1 and the size to match
// (std::invalid_argument otherwise).
ElementMap element_map(std::string output, MapMeasure measure, std::int64_t rows, std::int64_t cols,
                       std::span<const double> values);

// "bits_differ", "error_over_bound": the JSON "measure" field.
std::string map_measure_name(MapMeasure m);

// JSON: {"output", "measure", "rows", "cols", "cell_rows", "cell_cols", "cells"}, each cell a
// number, or "inf", "nan" (json_read::finite_or_text). element_map_from_json refuses a malformed map
// with an InputError naming the field (`where` and the member, e.g. "observed.map.cells: ..."),
// among them a cell its measure cannot hold, named by its index ("observed.map.cells[3]: ..."): in a
// bits_differ map anything but 0, 1 or nan; in an error_over_bound map a negative value or -inf.
nlohmann::json element_map_to_json(const ElementMap& m);
ElementMap element_map_from_json(const nlohmann::json& j, const std::string& where = "map");

}  // namespace parity
