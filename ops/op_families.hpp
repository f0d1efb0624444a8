#pragma once
// Every op family parity ships (one folder each under ops/), in `parity list families` order,
// then those a user's program registers (register_op.hpp). properties/gen/family.cpp lists them
// with the other families.
#include <string>
#include <vector>

#include <parity/properties/gen/family.hpp>

namespace parity::ops {

const std::vector<const gen::Family*>& op_families();

class OpFamily;
// The op family named `name` among op_families(); InputError naming it and listing the op
// families when there is none (the family exists but is not an op: lora, model, ...).
const OpFamily& find_op_family(const std::string& name);

// Adds a user's op family after parity's own. Throws std::logic_error once op_families() has been
// read (register at static initialisation: PARITY_REGISTER_OP) and InputError for a name taken.
void register_op_family(const gen::Family& family);

}  // namespace parity::ops
