#pragma once
// The bridge family behind the generic Family interface (properties/gen/family.hpp), and its
// typed runs over generated cases. Subjects and properties: properties/bridge/.
#include <parity/properties/bridge/bridge_properties.hpp>
#include <parity/properties/gen/bridge_cases.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::gen {

// Runs `property` on `subject` over bridge_case(caps). Throws InputError when the subject
// cannot run here.
RunResult run_bridge_property(const properties::bridge::BridgeSubject& subject,
                              const properties::bridge::BridgeProperty& property, const RunConfig& config,
                              BridgeCaps caps = {});

// Runs check_probe_caught for `probe` over bridge_case(caps): holds when the probe is caught
// on every generated case where it changes the function (the others are discarded). Cases are
// drawn at RapidCheck size 40 or more, so that few are single tokens of width 1.
RunResult run_bridge_probe_caught(const properties::bridge::BridgeSubject& probe, const RunConfig& config,
                                  BridgeCaps caps = {});

// The family. Its check() also answers the property "probe_caught" (check_probe_caught), so
// that a reproducer of run_bridge_probe_caught replays; properties() leaves it out, because it
// holds only for probes while detect_probe looks for a property that fails on one.
const Family& bridge_family();

}  // namespace parity::gen
