#pragma once
// The one list of every family this parity has, at the top of the stack (docs/design.md, "The
// stack"): lora, transition, model, trajectory and bridge, then every op family (parity's
// shipped ops in `parity list families` order, then those the program registers with
// PARITY_REGISTER_OP). The command, the fuzz seeds, the benchmarks and the family-generic test
// programs look families up here; nothing below this layer may.
#include <string>
#include <vector>

#include <parity/properties/gen/family.hpp>

namespace parity::registry {

// Every family, in the order above. Read after static initialisation: reading it closes the
// registration of users' op families (ops/op_families.hpp).
const std::vector<const gen::Family*>& families();

// The family named `name`; InputError "unknown family 'NAME' (this parity has: ...)" otherwise.
const gen::Family& find_family(const std::string& name);

}  // namespace parity::registry
