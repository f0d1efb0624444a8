#include <parity/properties/lora/error_bounds.hpp>

#include <cstring>

#include <parity/core/compare.hpp>

namespace parity::properties::lora {

std::string overflow_exemption(const char* at, double peak) {
  if (!(peak > kOverflowGuard)) return {};
  const std::string what = *at ? at : "an intermediate";
  if (!std::isfinite(peak)) return what + " is not finite (a non-finite operand)";
  // s times one operand element: a single float32 product, rounded to Inf at FLT_MAX + half an ulp.
  const bool one_product = std::strncmp(at, "s·", std::strlen("s·")) == 0 && std::strchr(at, ' ') == nullptr &&
                           std::strchr(at, '(') == nullptr && std::strcmp(at, "s·h") != 0;
  return what + " reaches " + number_text(peak) + " and " +
         (one_product && peak >= 0x1.ffffffp127 ? "overflows" : "may overflow") + " float32 in some permitted order";
}

}  // namespace parity::properties::lora
