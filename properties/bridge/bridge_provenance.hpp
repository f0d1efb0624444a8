#pragma once
// Where a bridge record came from: the environment that ran it and the SHA-256 of the sources
// that produced it (the reference bridge record's "environment" and "sources").
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parity::properties::bridge {

// {"compiler": "g++ 12.2.0", "cxx_standard": 202002, "libtorch": "1.13.0",
//  "platform": "Linux-6.1.0-18-amd64-x86_64", "parity": "0.1.0"}.
nlohmann::ordered_json environment_json();

// The bridge's own source files, relative to the source tree, as the build embedded them
// (PARITY_BRIDGE_SOURCES), and the tree they are read from (PARITY_SOURCE_DIR).
std::vector<std::string> bridge_source_paths();
std::filesystem::path bridge_source_root();

struct SourceDigests {
  nlohmann::ordered_json digests = nlohmann::ordered_json::object();  // path -> sha256 hex
  std::vector<std::string> missing;                                   // paths that could not be read under the root
};
// Hashes every bridge source file as it is now under `root`; a file that cannot be read is
// listed in `missing` (and has no digest), never silently skipped.
SourceDigests hash_sources(const std::filesystem::path& root, const std::vector<std::string>& paths);

}  // namespace parity::properties::bridge
