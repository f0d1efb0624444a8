#include <parity/report/reproducer_link.hpp>

#include <parity/report/html_text.hpp>

namespace parity::report {
namespace {

// `path` for an href: escaped for the attribute, and the characters a URL reads specially encoded.
std::string href(const std::string& path) {
  std::string out;
  for (const char c : path) {
    switch (c) {
      case ' ':
        out += "%20";
        break;
      case '#':
        out += "%23";
        break;
      case '?':
        out += "%3F";
        break;
      case '%':
        out += "%25";
        break;
      default:
        out += c;
    }
  }
  return markup_escaped(out);
}

}  // namespace

std::string path_from_page(const std::string& recorded, const std::filesystem::path& page_dir) {
  if (page_dir.empty() || recorded.empty()) return recorded;
  namespace fs = std::filesystem;
  const fs::path target = fs::absolute(recorded).lexically_normal();
  const fs::path relative = target.lexically_relative(fs::absolute(page_dir).lexically_normal());
  return relative.empty() ? target.string() : relative.string();
}

std::string file_link(const std::string& recorded, const std::filesystem::path& page_dir) {
  const std::string rel = path_from_page(recorded, page_dir);
  return "<a href=\"" + href(rel) + "\"><code>" + markup_escaped(rel) + "</code></a>";
}

std::string reproducer_html(const nlohmann::json& path, const nlohmann::json& replay,
                            const std::filesystem::path& page_dir) {
  if (!path.is_string()) return "<p>No reproducer was written.</p>\n";
  const std::string recorded = path.get<std::string>();
  const std::string from_page = path_from_page(recorded, page_dir);
  std::string out = "<p>File: " + file_link(recorded, page_dir) + "</p>\n";
  const std::string command = "parity replay " + from_page;
  out += "<p>Replay it from this page's folder: <code class=\"command\">" + markup_escaped(command) + "</code></p>\n";
  if (replay.is_string() && replay.get<std::string>() != command)
    out += "<p>As recorded, from the folder parity ran in: <code class=\"command\">" +
           markup_escaped(replay.get<std::string>()) + "</code></p>\n";
  return out;
}

}  // namespace parity::report
