#pragma once
// The record of `parity bridge --record FILE`, in the shape of the reference bridge record (docs/reference.md): the
// reference configuration, the comparisons of the manual float64 model against LibTorch
// autograd (explicit attention, and SDPA where this LibTorch has one, else why not), the
// mismatch probes (each must fail its comparison), the refused inputs (each refused by every
// path with one message), the environment and the SHA-256 of the bridge's sources. Built by
// the same functions as the generated-case properties (bridge_properties.hpp).
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/case.hpp>

namespace parity::properties::bridge {

struct BridgeRecord {
  nlohmann::ordered_json json;        // keys in the reference's order, then parity's additions
  bool passed = false;                // comparisons pass, every probe caught, every bad input refused
  std::vector<std::string> problems;  // one line per thing that did not hold
};

// Runs the bridge on `c` (reference_bridge_case() for the command); `command` is recorded as
// given. Throws InputError for a Case that cannot be materialised.
BridgeRecord build_bridge_record(const Case& c, const std::vector<std::string>& command);

// Writes the record to `path`, keys in order, with core/output_file.hpp's writer (a unique
// temporary file + rename, or in place for stdout and devices); throws InputError naming the
// path and the reason when it cannot be written.
void write_bridge_record(const nlohmann::ordered_json& record, const std::filesystem::path& path);

}  // namespace parity::properties::bridge
