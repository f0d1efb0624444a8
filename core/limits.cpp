#include <parity/core/limits.hpp>

#include <cstdio>

#include <parity/core/error.hpp>

namespace parity {

void require_within(const std::string& field, const std::string& quantity, double value, double limit,
                    const std::string& limit_text) {
  if (!(value > limit)) return;
  char amount[32];
  std::snprintf(amount, sizeof amount, "%.3g", value);
  throw InputError(field + ": " + quantity + " is " + amount + ", more than the limit of " + limit_text);
}

void require_case_bytes(const std::string& field, const std::string& quantity, double bytes) {
  require_within(field, quantity, bytes, kMaxCaseBytes, "2^30 bytes (1 GiB)");
}

}  // namespace parity
