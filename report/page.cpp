#include <parity/report/page.hpp>

#include <parity/report/html_text.hpp>

namespace parity::report {
namespace {

constexpr std::string_view kStyle = R"css(
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1180px; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 17px; margin: 24px 0 8px; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; font-variant-numeric: tabular-nums; }
th { background: #f2f2f2; }
dl.settings { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; }
dl.settings dt { font-weight: 600; } dl.settings dd { margin: 0; }
.verdict { font-weight: 600; } .diverged { color: #b00020; } .equal { color: #1b5e20; }
figure.plot { display: inline-block; margin: 8px 16px 8px 0; }
figure.plot figcaption { font-size: 12px; color: #555; max-width: 700px; }
svg text { font: 11px system-ui, sans-serif; fill: #222; }
svg text.title { font-size: 13px; font-weight: 600; } svg text.note { fill: #555; }
svg line.axis { stroke: #222; } svg line.grid { stroke: #e4e4e4; }
svg line.break { stroke: #999; stroke-dasharray: 3 3; }
code { background: #f4f4f4; padding: 0 3px; } code.command { user-select: all; }
section.conclusion { border-left: 4px solid #888; padding: 2px 12px; margin: 8px 0 16px; }
.status-fails { color: #b00020; font-weight: 600; } .status-holds { color: #1b5e20; } .status-skipped { color: #777; }
)css";

constexpr std::string_view kRenderCheck = R"js(
window.addEventListener('load', function () {
  var plots = document.querySelectorAll('figure.plot svg'), drawn = 0;
  plots.forEach(function (svg) {
    var marks = svg.querySelectorAll('.data');
    for (var i = 0; i < marks.length; ++i) {
      var box = marks[i].getBBox();
      if (box.width > 0 || box.height > 0) { ++drawn; return; }
    }
  });
  document.body.dataset.plotsRendered = String(drawn);
  document.getElementById('render-check').textContent =
      'plots rendered: ' + drawn + ' of ' + plots.length;
});
)js";

}  // namespace

std::string html_page(std::string_view title, std::string_view body_html) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>";
  out += markup_escaped(title);
  out += "</title><style>";
  out += kStyle;
  out += "</style></head>\n<body>\n";
  out += body_html;
  out += "<p id=\"render-check\">plots rendered: not checked</p>\n<script>";
  out += kRenderCheck;
  out += "</script>\n</body></html>\n";
  return out;
}

}  // namespace parity::report
