#pragma once
// A line plot with a logarithmic y axis, as an inline SVG figure of an HTML page.
//
// Differences between two runs are often exactly zero, and log(0) does not exist: zeros are
// drawn on a row of their own below the lowest decade, labelled "0", and the legend says what
// a zero means. Values that are not finite, or negative, are left out of the drawing (a line
// is broken there, never joined across the gap) and the caption says how many were left out.
#include <string>
#include <vector>

namespace parity::report {

struct PlotPoint {
  double x = 0;
  double y = 0;  // >= 0; nan, inf and negative values are left out of the drawing
};

struct PlotSeries {
  std::string name;  // plain text: escaped when drawn
  std::vector<PlotPoint> points;
};

struct LogPlot {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::string zero_meaning;  // legend note for y = 0, e.g. "0 = bitwise equal"
  std::vector<PlotSeries> series;
};

// A <figure class="plot"> holding an <svg>: axes with ticks at powers of ten (y) and integers
// (x), their labels, the title, one coloured polyline with point markers per series and a
// legend. Every drawn data mark has class "data" (the page's render check measures them); a
// plot with nothing plottable draws none and says so. All text is escaped.
std::string render_log_plot(const LogPlot& plot);

}  // namespace parity::report
