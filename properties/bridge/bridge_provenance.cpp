#include <parity/properties/bridge/bridge_provenance.hpp>

#include <sys/utsname.h>

#include <parity/properties/bridge/sha256.hpp>
#include <parity/subjects/torch/torch_runtime.hpp>

#ifndef PARITY_SOURCE_DIR
#error "the build defines PARITY_SOURCE_DIR (properties/CMakeLists.txt)"
#endif
#ifndef PARITY_BRIDGE_SOURCES
#error "the build defines PARITY_BRIDGE_SOURCES (properties/CMakeLists.txt)"
#endif

namespace parity::properties::bridge {
namespace {

std::string compiler() {
#if defined(__clang__)
  return std::string("clang++ ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("g++ ") + __VERSION__;
#else
  return "unknown";
#endif
}

std::string platform() {
  utsname u{};
  if (uname(&u) != 0) return "unknown";
  return std::string(u.sysname) + "-" + u.release + "-" + u.machine;
}

}  // namespace

nlohmann::ordered_json environment_json() {
  nlohmann::ordered_json j;
  j["compiler"] = compiler();
  j["cxx_standard"] = __cplusplus;
  j["libtorch"] = subjects::torch_impl::torch_version_text();
  j["platform"] = platform();
  j["parity"] = "0.1.0";
  return j;
}

std::vector<std::string> bridge_source_paths() {
  std::vector<std::string> paths;
  const std::string all = PARITY_BRIDGE_SOURCES;
  std::size_t start = 0;
  while (start <= all.size()) {
    const std::size_t comma = all.find(',', start);
    const std::string p = all.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!p.empty()) paths.push_back(p);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return paths;
}

std::filesystem::path bridge_source_root() { return PARITY_SOURCE_DIR; }

SourceDigests hash_sources(const std::filesystem::path& root, const std::vector<std::string>& paths) {
  SourceDigests d;
  for (const std::string& p : paths) {
    if (const auto hex = sha256_file_hex(root / p)) d.digests[p] = *hex;
    else d.missing.push_back(p);
  }
  return d;
}

}  // namespace parity::properties::bridge
