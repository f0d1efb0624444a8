#include <parity/core/element_map.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <parity/core/error.hpp>
#include <parity/core/json_read.hpp>

namespace parity {

using nlohmann::json;
namespace jr = json_read;

bool operator==(const ElementMap& a, const ElementMap& b) {
  // NaN cells (not measured) compare equal to each other.
  return a.output == b.output && a.measure == b.measure && a.rows == b.rows && a.cols == b.cols &&
         a.cell_rows == b.cell_rows && a.cell_cols == b.cell_cols &&
         std::equal(a.cells.begin(), a.cells.end(), b.cells.begin(), b.cells.end(),
                    [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); });
}

namespace {

// v rounded up to 3 significant digits (the shortest text of the result has at most 3).
double three_digits_up(double v) {
  if (!std::isfinite(v) || v == 0.0) return v;
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", v);
  double r = std::strtod(text, nullptr);
  if (r < v) {
    const double step = std::pow(10.0, std::floor(std::log10(std::fabs(r))) - 2);
    std::snprintf(text, sizeof text, "%.2e", r + step);
    r = std::strtod(text, nullptr);
  }
  return r;
}

// Whether a cell of a map of `measure` can hold v: a pooled flag, or a pooled |error| / bound.
bool cell_can_hold(MapMeasure measure, double v) {
  if (std::isnan(v)) return true;  // not measured
  return measure == MapMeasure::bits_differ ? v == 0.0 || v == 1.0 : v >= 0.0;
}

}  // namespace

ElementMap element_map(std::string output, MapMeasure measure, std::int64_t rows, std::int64_t cols,
                       std::span<const double> values) {
  if (rows < 1 || cols < 1 || static_cast<std::int64_t>(values.size()) != rows * cols)
    throw std::invalid_argument("element_map: " + std::to_string(values.size()) + " values for " +
                                std::to_string(rows) + " x " + std::to_string(cols));
  ElementMap m{std::move(output), measure, rows, cols, std::min(rows, kMapRows), std::min(cols, kMapCols), {}};
  m.cells.assign(static_cast<std::size_t>(m.cell_rows * m.cell_cols), NAN);
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t i = (r * m.cell_rows + m.cell_rows - 1) / rows;  // the cell row whose range holds r
    for (std::int64_t c = 0; c < cols; ++c) {
      const double v = values[static_cast<std::size_t>(r * cols + c)];
      double& cell = m.cells[static_cast<std::size_t>(i * m.cell_cols + (c * m.cell_cols + m.cell_cols - 1) / cols)];
      if (!std::isnan(v) && (std::isnan(cell) || v > cell)) cell = v;
    }
  }
  for (double& cell : m.cells) cell = three_digits_up(cell);
  return m;
}

std::string map_measure_name(MapMeasure m) { return m == MapMeasure::bits_differ ? "bits_differ" : "error_over_bound"; }

json element_map_to_json(const ElementMap& m) {
  json cells = json::array();
  for (const double v : m.cells) cells.push_back(jr::finite_or_text(v));
  return {{"output", m.output},       {"measure", map_measure_name(m.measure)},
          {"rows", m.rows},           {"cols", m.cols},
          {"cell_rows", m.cell_rows}, {"cell_cols", m.cell_cols},
          {"cells", std::move(cells)}};
}

ElementMap element_map_from_json(const json& j, const std::string& where) {
  jr::require_object(j, where);
  ElementMap m;
  m.output = jr::as_string(jr::member(j, where, "output"), where + ".output");
  const std::string measure = jr::as_string(jr::member(j, where, "measure"), where + ".measure");
  if (measure == "bits_differ") m.measure = MapMeasure::bits_differ;
  else if (measure == "error_over_bound") m.measure = MapMeasure::error_over_bound;
  else throw InputError(where + ".measure: expected bits_differ or error_over_bound");
  auto extent = [&](const char* key, std::int64_t lo, std::int64_t hi) {
    const std::int64_t v = jr::as_int(jr::member(j, where, key), where + "." + key);
    if (v < lo || v > hi)
      throw InputError(where + "." + key + ": expected " + std::to_string(lo) +
                       (lo == hi ? "" : " to " + std::to_string(hi)));
    return v;
  };
  m.rows = extent("rows", 1, INT64_MAX / kMapRows);  // first_row(i) stays within int64
  m.cols = extent("cols", 1, INT64_MAX / kMapCols);
  m.cell_rows = extent("cell_rows", std::min(m.rows, kMapRows), std::min(m.rows, kMapRows));
  m.cell_cols = extent("cell_cols", std::min(m.cols, kMapCols), std::min(m.cols, kMapCols));
  const json& cells = jr::member(j, where, "cells");
  jr::require_array(cells, where + ".cells");
  if (static_cast<std::int64_t>(cells.size()) != m.cell_rows * m.cell_cols)
    throw InputError(where + ".cells: expected " + std::to_string(m.cell_rows * m.cell_cols) + " values (" +
                     std::to_string(m.cell_rows) + " x " + std::to_string(m.cell_cols) + "), not " +
                     std::to_string(cells.size()));
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const std::string at = where + ".cells[" + std::to_string(k) + "]";
    const double v = jr::as_double(cells[k], at);
    if (!cell_can_hold(m.measure, v))
      throw InputError(at + ": expected " +
                       (m.measure == MapMeasure::bits_differ ? "0, 1 or nan (bits_differ)"
                                                             : "a number >= 0, inf or nan (error_over_bound)") +
                       ", not " + cells[k].dump());
    m.cells.push_back(v);
  }
  return m;
}

}  // namespace parity
