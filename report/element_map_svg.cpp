#include <parity/report/element_map_svg.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <parity/report/html_text.hpp>

namespace parity::report {
namespace {

constexpr double kMapGridWidth = 512, kMapGridHeight = 160, kMapBarsHeight = 120;
constexpr double kMapLeft = 56, kMapTop = 8;

std::string svg_num(double v) { return format_short(v, 5); }

std::string range_text(std::int64_t first, std::int64_t last) {
  return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

bool marked(const ElementMap& m, double v) {
  return !std::isnan(v) && (m.measure == MapMeasure::bits_differ ? v > 0 : v > 1);
}

std::string svg_rect(double x, double y, double w, double h, const std::string& cls, const std::string& extra = {}) {
  return "<rect class=\"" + cls + "\" x=\"" + svg_num(x) + "\" y=\"" + svg_num(y) + "\" width=\"" + svg_num(w) +
         "\" height=\"" + svg_num(h) + "\"" + extra;
}

std::string svg_text(double x, double y, const std::string& s, const std::string& anchor = "start") {
  return "<text x=\"" + svg_num(x) + "\" y=\"" + svg_num(y) + "\" text-anchor=\"" + anchor + "\">" + markup_escaped(s) +
         "</text>\n";
}

// The grid of cells at (kMapLeft, top): marked runs in red, unmeasured runs white. Returns its
// height; widens `width` to its own.
double draw_grid(const ElementMap& m, double top, std::string& svg, double& width) {
  const double cw = std::clamp(kMapGridWidth / static_cast<double>(m.cell_cols), 2.0, 24.0);
  const double ch = std::clamp(kMapGridHeight / static_cast<double>(m.cell_rows), 3.0, 16.0);
  const double w = cw * static_cast<double>(m.cell_cols), h = ch * static_cast<double>(m.cell_rows);
  svg += svg_rect(kMapLeft, top, w, h, "grid-cells") + "/>\n";
  const char* what = m.measure == MapMeasure::bits_differ ? "bits differ" : "outside the bound";
  for (std::int64_t i = 0; i < m.cell_rows; ++i) {
    const double y = top + ch * static_cast<double>(i);
    const std::int64_t last_row = (i + 1 < m.cell_rows ? m.first_row(i + 1) : m.rows) - 1;
    for (std::int64_t j = 0; j < m.cell_cols;) {
      const double v = m.at(i, j);
      const bool mark = marked(m, v), unmeasured = std::isnan(v);
      std::int64_t k = j + 1;
      while (k < m.cell_cols && marked(m, m.at(i, k)) == mark && std::isnan(m.at(i, k)) == unmeasured) ++k;
      if (mark || unmeasured) {
        const std::string rows = range_text(m.first_row(i), last_row);
        const std::string elements = range_text(m.first_col(j), (k < m.cell_cols ? m.first_col(k) : m.cols) - 1);
        const std::string title = "rows " + rows + ", elements " + elements + ": " + (mark ? what : "not compared");
        svg += svg_rect(kMapLeft + cw * static_cast<double>(j), y, cw * static_cast<double>(k - j), ch,
                        mark ? "data mark" : "unmeasured",
                        mark ? " data-rows=\"" + rows + "\" data-elements=\"" + elements + "\"" : "") +
               "><title>" + markup_escaped(title) + "</title></rect>\n";
      }
      j = k;
    }
  }
  svg += svg_text(kMapLeft - 4, top + 10, "row 0", "end");
  if (m.rows > 1) svg += svg_text(kMapLeft - 4, top + h, std::to_string(m.rows - 1), "end");
  svg += svg_text(kMapLeft, top + h + 12, m.cols > 1 ? "elements 0-" + std::to_string(m.cols - 1) : "element 0");
  width = std::max(width, w);
  return h + 16;
}

// The bars of each cell column's largest |error| / bound at (kMapLeft, top). Returns their
// height; widens `width` to their own.
double draw_bars(const ElementMap& m, double top, std::string& svg, double& width) {
  std::vector<double> worst(static_cast<std::size_t>(m.cell_cols), NAN);
  double lo = INFINITY, hi = 0;
  for (std::int64_t j = 0; j < m.cell_cols; ++j) {
    for (std::int64_t i = 0; i < m.cell_rows; ++i)
      if (const double v = m.at(i, j); !std::isnan(v) && !(v <= worst[j])) worst[j] = v;
    if (std::isfinite(worst[j]) && worst[j] > 0) lo = std::min(lo, worst[j]), hi = std::max(hi, worst[j]);
  }
  // Decades from the smallest positive value (at most 6 below the bound) to above the largest.
  const double low_decade = std::clamp(std::floor(std::log10(std::isfinite(lo) ? lo : 0.1)), -6.0, -1.0);
  const double high_decade = std::max(1.0, std::ceil(std::log10(std::max(hi, 1.0) * 1.0001)));
  auto y_of = [&](double v) {
    const double f = (std::log10(v) - low_decade) / (high_decade - low_decade);
    return top + kMapBarsHeight * (1 - std::clamp(f, 0.0, 1.0));
  };
  const double bw = std::clamp(kMapGridWidth / static_cast<double>(m.cell_cols), 1.0, 24.0);
  svg += svg_rect(kMapLeft, top, bw * static_cast<double>(m.cell_cols), kMapBarsHeight, "bars-area") + "/>\n";
  for (std::int64_t j = 0; j < m.cell_cols; ++j) {
    const double v = worst[j];
    if (std::isnan(v) || v <= 0) continue;
    const double y = std::isinf(v) ? top : y_of(v);
    const std::string elements = range_text(m.first_col(j), (j + 1 < m.cell_cols ? m.first_col(j + 1) : m.cols) - 1);
    svg += svg_rect(kMapLeft + bw * static_cast<double>(j), y, std::max(bw - (bw > 3 ? 1 : 0), 1.0),
                    top + kMapBarsHeight - y, v > 1 ? "data bar over" : "data bar",
                    " data-elements=\"" + elements + "\"") +
           "><title>elements " + elements + ": |error| / bound " + markup_escaped(format_short(v, 3)) +
           "</title></rect>\n";
  }
  const double w = bw * static_cast<double>(m.cell_cols);
  width = std::max(width, w);
  svg += "<line class=\"bound\" x1=\"" + svg_num(kMapLeft) + "\" x2=\"" + svg_num(kMapLeft + w) + "\" y1=\"" +
         svg_num(y_of(1)) + "\" y2=\"" + svg_num(y_of(1)) + "\"/>\n";
  svg += svg_text(kMapLeft - 4, y_of(1) + 4, "1 (bound)", "end");
  svg += svg_text(kMapLeft - 4, top + 10, "1e" + std::to_string(static_cast<int>(high_decade)), "end");
  svg += svg_text(kMapLeft - 4, top + kMapBarsHeight, "1e" + std::to_string(static_cast<int>(low_decade)), "end");
  return kMapBarsHeight + 8;
}

std::string map_caption(const ElementMap& m) {
  std::int64_t rows_marked = 0, cols_marked = 0;
  for (std::int64_t i = 0; i < m.cell_rows; ++i) {
    bool any = false;
    for (std::int64_t j = 0; j < m.cell_cols; ++j) any = any || marked(m, m.at(i, j));
    rows_marked += any;
  }
  for (std::int64_t j = 0; j < m.cell_cols; ++j) {
    bool any = false;
    for (std::int64_t i = 0; i < m.cell_rows; ++i) any = any || marked(m, m.at(i, j));
    cols_marked += any;
  }
  const bool pooled = m.cell_rows < m.rows || m.cell_cols < m.cols;
  const std::string rows_word = m.cell_rows < m.rows ? " groups of rows" : " rows";
  const std::string cols_word = m.cell_cols < m.cols ? " groups of elements" : " elements";
  std::string s = "<code>" + markup_escaped(m.output) + "</code>, " + std::to_string(m.rows) + " rows &times; " +
                  std::to_string(m.cols) + " elements: ";
  if (m.measure == MapMeasure::bits_differ)
    s += "bits differ (red) in " + std::to_string(rows_marked) + " of " + std::to_string(m.cell_rows) + rows_word +
         ", " + std::to_string(cols_marked) + " of " + std::to_string(m.cell_cols) + cols_word +
         "; white: not compared.";
  else
    s +=
        "|error| / bound, the largest over the rows (log scale; the line is the bound): above it (red) in " +
        std::to_string(cols_marked) + " of " + std::to_string(m.cell_cols) + cols_word +
        (m.cell_rows > 1 ? ", " + std::to_string(rows_marked) + " of " + std::to_string(m.cell_rows) + rows_word : "") +
        ".";
  if (pooled) s += " Each cell is the largest value of the elements it covers.";
  return s;
}

}  // namespace

std::string element_map_figure(const ElementMap& m) {
  std::string svg;
  double y = kMapTop, drawn = 80;  // room for the elements' label under a narrow grid
  if (m.measure == MapMeasure::error_over_bound) y += draw_bars(m, y, svg, drawn) + 8;
  if (m.measure == MapMeasure::bits_differ || m.cell_rows > 1) y += draw_grid(m, y, svg, drawn);
  const double width = kMapLeft + drawn + 16;
  return "<figure class=\"plot map\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg_num(width) +
         "\" height=\"" + svg_num(y + 4) + "\" viewBox=\"0 0 " + svg_num(width) + " " + svg_num(y + 4) +
         "\" role=\"img\">\n" + svg + "</svg><figcaption>" + map_caption(m) + "</figcaption></figure>\n";
}

}  // namespace parity::report
