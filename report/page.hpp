#pragma once
// A self-contained HTML page for a report: inline CSS, no external resource, no network, and a
// render check that a headless browser's DOM dump can be read for.
#include <string>
#include <string_view>

namespace parity::report {

// The whole document: `title` (plain text, escaped) and `body_html` (already HTML) with the
// page's style sheet. After load, an inline script measures the "data" marks of every
// `figure.plot` with getBBox() and counts the plots whose marks have a non-empty box: the count
// goes into document.body.dataset.plotsRendered and into
// <p id="render-check">plots rendered: N of M</p>, M being the number of plots on the page.
// So the dumped DOM shows that the layout engine drew every plot (N == M), or that some drew
// nothing (N < M). Without script the paragraph says "plots rendered: not checked".
std::string html_page(std::string_view title, std::string_view body_html);

}  // namespace parity::report
