// transition_case_fuzzer: bytes -> JSON -> case_from_json -> properties::transition::
// materialise, the validator every transition check and `parity replay` runs first.
//
// Property: a Case either materialises or is refused with an InputError (never another
// exception, a crash or a leak), and a parsed Case round-trips through JSON exactly. Inputs
// may be a Case object or a whole reproducer.
// Budget: Cases whose operands would hold more than 2^20 storage elements in all are skipped
// before materialising (cost guard).
#include <cstdint>

#include <parity/fuzz/json_case.hpp>
#include <parity/properties/transition/transition_problem.hpp>

namespace {

constexpr const char* kHarness = "transition_case_fuzzer";
constexpr double kMaxStorage = 1 << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace parity;
  const auto c = fuzz::parse_case(data, size, kHarness);
  if (!c) return 0;
  fuzz::require_round_trip(*c, kHarness);
  const double B = fuzz::dim_or_1(*c, "B"), n = fuzz::dim_or_1(*c, "tokens") * fuzz::dim_or_1(*c, "channels");
  double storage = 0.0;
  for (const char* op : {"x", "v", "eps"}) storage += fuzz::storage_bound(B, n, c->layout(op));
  if (storage > kMaxStorage) return -1;
  fuzz::accepted([&] { properties::transition::materialise(*c); }, kHarness, "materialise");
  return 0;
}
