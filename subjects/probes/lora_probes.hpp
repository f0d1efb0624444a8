#pragma once
// Mismatch probes of the LoRA family: real alternative implementations, each wrong in one way
// that a user's kernel could be. Every probe must be detected by at least one LoRA property
// (`parity probes lora`); a probe nothing detects is a failure of parity.
#include <memory>
#include <string>
#include <vector>

#include "subjects/lora_family.hpp"

namespace parity::subjects::probes {

struct LoraProbe {
  std::string name;         // subject name, "probe-..."
  std::string description;  // what is wrong, one line
  std::unique_ptr<LoraSubject> (*make)();
};

// The reduction of the forward base product splits in two halves of K once a call has more
// than this many rows (a split-K that a shape heuristic turns on).
inline constexpr std::int64_t kSplitKRowThreshold = 16;

const std::vector<LoraProbe>& lora_probes();

}  // namespace parity::subjects::probes
