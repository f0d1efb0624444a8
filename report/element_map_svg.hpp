#pragma once
// A verdict's element map (core/element_map.hpp) drawn as an inline SVG figure of a report page:
// no script, no external resource.
#include <string>

#include <parity/core/element_map.hpp>

namespace parity::report {

// A <figure class="plot map"> holding an <svg> and a caption that says what is drawn:
// - bits_differ: a grid of the map's cells (rows down, elements across), red where bits differ,
//   white where nothing was compared;
// - error_over_bound: a bar per cell column of the largest |error| / bound over the rows, on a
//   log scale with a line at 1 (the bound), red above it; and, for more than one cell row, the
//   grid of the cells above 1.
// Each marked run of cells (bits differ, or above the bound) is a <rect class="data mark"> with
// data-rows and data-elements, the ranges of the map's view it covers ("2" or "0-63"), and a
// <title> saying so; each bar a <rect class="data bar">. The page's render check measures the
// "data" marks (page.hpp).
std::string element_map_figure(const ElementMap& m);

}  // namespace parity::report
