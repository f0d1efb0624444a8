#pragma once
// Mismatch probes of the transition step: real alternative implementations of it, each wrong in
// one way seen in practice. Every one must be detected by some property of the transition family
// (`parity probes transition`).
#include <vector>

#include <parity/subjects/transition_family.hpp>

namespace parity::subjects::probes {

// Registers the transition probes that the family's own properties detect (kind probe, backend
// host, names "probe-...") with register_subject. Called once, by the transition catalog.
void register_transition_probes();

}  // namespace parity::subjects::probes
