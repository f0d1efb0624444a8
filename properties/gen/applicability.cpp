#include <parity/properties/gen/applicability.hpp>

namespace parity::gen {

std::string not_applicable_reason(const subjects::SubjectCapabilities& caps, const subjects::CapabilityNeeds& needs) {
  if (!caps.strided_layouts && needs.strided_layouts)
    return "the subject accepts contiguous operands only (capabilities.strided_layouts is false)";
  if (!caps.backward && needs.backward) return "the subject has no backward (capabilities.backward is false)";
  return {};
}

}  // namespace parity::gen
