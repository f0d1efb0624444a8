#include <parity/report/page.hpp>

#include <parity/report/html_text.hpp>

namespace parity::report {
namespace {

constexpr std::string_view kStyle = R"css(
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1180px; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 17px; margin: 24px 0 8px; }
table { border-collapse: collapse; margin: 8px 0; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top;
         font-variant-numeric: tabular-nums; overflow-wrap: break-word; }
th, td code, td a, td summary { white-space: normal; overflow-wrap: anywhere; } .absent { color: #999; }
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
article.card { border: 1px solid #d8d8d8; border-left: 4px solid #b00020; border-radius: 4px; padding: 4px 12px;
               margin: 8px 0 12px; max-width: 100%; overflow-wrap: anywhere; }
article.card h4 { font-size: 15px; margin: 4px 0; } article.card .kind { color: #b00020; font-weight: 400; }
article.card p { margin: 4px 0; } article.card .label { font-size: 12px; color: #555; margin-bottom: 0; }
pre.command { background: #f4f4f4; padding: 4px 8px; margin: 2px 0 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
svg rect.grid-cells { fill: #e8f5e9; stroke: #999; } svg rect.unmeasured { fill: #fff; }
svg rect.mark, svg rect.bar.over { fill: #b00020; } svg rect.bar { fill: #7a9cc6; }
svg rect.bars-area { fill: #fafafa; stroke: #ccc; } svg line.bound { stroke: #222; stroke-dasharray: 4 2; }
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
