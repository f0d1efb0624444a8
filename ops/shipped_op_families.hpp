#pragma once
// The op families parity ships, one folder each under ops/, in the folders' alphabetical order:
// the list is written at configure time from each folder's parity_add_op call
// (ops/CMakeLists.txt), so adding an op touches its folder alone. Read through op_families().
#include <vector>

#include <parity/properties/gen/family.hpp>

namespace parity::ops {

std::vector<const gen::Family*> shipped_op_families();

}  // namespace parity::ops
