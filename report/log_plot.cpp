#include <parity/report/log_plot.hpp>

#include <algorithm>
#include <cmath>
#include <string_view>

#include <parity/report/html_text.hpp>

namespace parity::report {
namespace {

// The SVG's frame, in its own pixels.
constexpr double kWidth = 570, kHeight = 270;
constexpr double kLeft = 62, kRight = 360, kTop = 36, kBottom = 220;
constexpr double kLegend = kRight + 24;  // the legend's left edge
constexpr double kZeroBand = 26;         // the zero row sits this far below the lowest decade
constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                    "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

// Series i's stroke: its colour, dashed for every other series so that lines lying on each
// other (all on the zero row, say) still show both.
std::string stroke(std::size_t i, double width) {
  return "stroke=\"" + std::string(kColours[i % std::size(kColours)]) + "\" stroke-width=\"" + format_short(width) +
         "\"" + (i % 2 ? " stroke-dasharray=\"6 3\"" : "");
}

bool plottable(double y) { return std::isfinite(y) && y >= 0; }

std::string num(double v) { return format_short(v, 6); }

// What the y axis spans: decades [lo, hi] of the positive values, and whether a zero row is
// needed below them.
struct YScale {
  bool any_positive = false, any_zero = false;
  int lo = 0, hi = 1;
  double log_bottom() const { return any_zero ? kBottom - kZeroBand : kBottom; }
  double pixel(double y) const {
    if (y == 0) return kBottom;
    if (!any_positive) return kTop;
    return log_bottom() - (std::log10(y) - lo) / (hi - lo) * (log_bottom() - kTop);
  }
};

struct XScale {
  double lo = 0, hi = 1;
  double pixel(double x) const { return kLeft + (x - lo) / (hi - lo) * (kRight - kLeft); }
};

YScale y_scale(const LogPlot& plot) {
  YScale s;
  double min_pos = INFINITY, max_pos = 0;
  for (const auto& series : plot.series)
    for (const auto& p : series.points) {
      if (!plottable(p.y)) continue;
      if (p.y == 0) {
        s.any_zero = true;
      } else {
        s.any_positive = true;
        min_pos = std::min(min_pos, p.y);
        max_pos = std::max(max_pos, p.y);
      }
    }
  if (s.any_positive) {
    s.lo = static_cast<int>(std::floor(std::log10(min_pos)));
    s.hi = static_cast<int>(std::ceil(std::log10(max_pos)));
    if (s.hi == s.lo) ++s.hi;
  }
  return s;
}

XScale x_scale(const LogPlot& plot) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& series : plot.series)
    for (const auto& p : series.points)
      if (std::isfinite(p.x)) lo = std::min(lo, p.x), hi = std::max(hi, p.x);
  if (lo > hi) return {};
  if (lo == hi) return {lo - 1, hi + 1};
  return {lo, hi};
}

// 1, 2 or 5 times a power of ten, so that [lo, hi] has at most ten ticks.
double tick_step(double span) {
  for (double decade = 1;; decade *= 10)
    for (double m : {1.0, 2.0, 5.0})
      if (span / (m * decade) <= 10) return m * decade;
}

std::string text(double x, double y, std::string_view anchor, std::string_view body, std::string_view extra = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + std::string(anchor) + "\"" +
         std::string(extra) + ">" + std::string(body) + "</text>";
}

std::string line(double x1, double y1, double x2, double y2, std::string_view cls) {
  return "<line class=\"" + std::string(cls) + "\" x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) +
         "\" y2=\"" + num(y2) + "\"/>";
}

std::string y_axis(const YScale& ys) {
  std::string out = line(kLeft, kTop, kLeft, kBottom, "axis");
  if (ys.any_positive) {
    const int every = std::max(1, (ys.hi - ys.lo + 7) / 8);
    for (int e = ys.lo; e <= ys.hi; e += every) {
      const double y = ys.pixel(std::pow(10.0, e));
      out += line(kLeft, y, kRight, y, "grid") + line(kLeft - 5, y, kLeft, y, "axis");
      out += text(kLeft - 8, y + 4, "end", "10<tspan dy=\"-6\" font-size=\"9\">" + std::to_string(e) + "</tspan>");
    }
  }
  if (ys.any_zero) {
    out += line(kLeft - 5, kBottom, kLeft, kBottom, "axis") +
           line(kLeft, ys.log_bottom() + kZeroBand / 2, kRight, ys.log_bottom() + kZeroBand / 2, "break");
    out += text(kLeft - 8, kBottom + 4, "end", "0");
  }
  return out;
}

std::string x_axis(const XScale& xs) {
  std::string out = line(kLeft, kBottom, kRight, kBottom, "axis");
  const double step = tick_step(xs.hi - xs.lo);
  for (double x = std::ceil(xs.lo / step) * step; x <= xs.hi + 1e-9; x += step) {
    const double px = xs.pixel(x);
    out += line(px, kBottom, px, kBottom + 5, "axis") + text(px, kBottom + 18, "middle", num(x));
  }
  return out;
}

// One series: its unbroken runs of plottable points as polylines, every point as a marker.
std::string series_marks(const PlotSeries& s, std::size_t index, const XScale& xs, const YScale& ys) {
  const char* colour = kColours[index % std::size(kColours)];
  std::string out, run;
  int run_points = 0;
  auto flush = [&] {
    if (run_points >= 2)
      out += "<polyline class=\"data\" fill=\"none\" " + stroke(index, 1.6) + " points=\"" + run + "\"/>";
    run.clear();
    run_points = 0;
  };
  for (const auto& p : s.points) {
    if (!plottable(p.y) || !std::isfinite(p.x)) {
      flush();
      continue;
    }
    const double px = xs.pixel(p.x), py = ys.pixel(p.y);
    run += num(px) + "," + num(py) + " ";
    ++run_points;
    out += "<circle class=\"data\" r=\"2.5\" fill=\"" + std::string(colour) + "\" cx=\"" + num(px) + "\" cy=\"" +
           num(py) + "\"><title>" + markup_escaped(s.name) + " at " + num(p.x) + ": " + format_exact(p.y) +
           "</title></circle>";
  }
  flush();
  return out;
}

std::string legend(const LogPlot& plot, const YScale& ys) {
  std::string out;
  double y = kTop + 4;
  for (std::size_t i = 0; i < plot.series.size(); ++i, y += 18) {
    out += "<line x1=\"" + num(kLegend) + "\" x2=\"" + num(kLegend + 24) + "\" y1=\"" + num(y) + "\" y2=\"" + num(y) +
           "\" " + stroke(i, 2.5) + "/>" + text(kLegend + 30, y + 4, "start", markup_escaped(plot.series[i].name));
  }
  if (ys.any_zero && !plot.zero_meaning.empty())
    out += text(kLegend, y + 8, "start", markup_escaped(plot.zero_meaning) + " (bottom row)", " class=\"note\"");
  return out;
}

std::size_t left_out(const LogPlot& plot) {
  std::size_t n = 0;
  for (const auto& s : plot.series)
    for (const auto& p : s.points) n += !plottable(p.y) || !std::isfinite(p.x);
  return n;
}

}  // namespace

std::string render_log_plot(const LogPlot& plot) {
  const YScale ys = y_scale(plot);
  const XScale xs = x_scale(plot);
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" + num(kHeight) +
                    "\" viewBox=\"0 0 " + num(kWidth) + " " + num(kHeight) + "\" role=\"img\">";
  svg += text(kWidth / 2, 22, "middle", markup_escaped(plot.title), " class=\"title\"");
  svg += y_axis(ys) + x_axis(xs);
  svg += text((kLeft + kRight) / 2, kHeight - 10, "middle", markup_escaped(plot.x_label));
  svg += text(16, (kTop + kBottom) / 2, "middle", markup_escaped(plot.y_label),
              " transform=\"rotate(-90 16 " + num((kTop + kBottom) / 2) + ")\"");
  for (std::size_t i = 0; i < plot.series.size(); ++i) svg += series_marks(plot.series[i], i, xs, ys);
  if (!ys.any_positive)
    svg += text((kLeft + kRight) / 2, (kTop + kBottom) / 2, "middle",
                ys.any_zero ? "every plotted value is 0" : "no plottable values", " class=\"note\"");
  svg += legend(plot, ys) + "</svg>";

  std::string caption = "log scale";
  if (const std::size_t n = left_out(plot))
    caption += "; " + std::to_string(n) +
               " value(s) not finite or negative (nan, inf) left out of the plot: "
               "the tables show them";
  return "<figure class=\"plot\">" + svg + "<figcaption>" + caption + "</figcaption></figure>\n";
}

}  // namespace parity::report
