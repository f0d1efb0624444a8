#pragma once
// Mismatch probes of the transition family: real alternative implementations of the step,
// each wrong in one way seen in practice. Every one must be detected by some transition
// property (`parity probes transition`).
#include <memory>
#include <string>
#include <vector>

#include "subjects/transition_family.hpp"

namespace parity::subjects::probes {

struct TransitionProbe {
  std::string name;
  std::string description;
  std::unique_ptr<TransitionSubject> (*make)();
};

const std::vector<TransitionProbe>& transition_probes();

}  // namespace parity::subjects::probes
