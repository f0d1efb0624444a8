// lora_case_fuzzer: bytes -> JSON -> case_from_json -> properties::lora::materialise, the
// validator every LoRA check and `parity replay` runs first.
//
// Property: a Case either materialises or is refused with an InputError (never another
// exception, a crash or a leak), and a parsed Case round-trips through JSON exactly. Inputs
// may be a Case object or a whole reproducer.
// Budget: Cases whose operands would hold more than 2^20 storage elements in all are skipped
// before materialising (cost guard: they are slow, not interesting).
#include <cstdint>

#include <parity/fuzz/json_case.hpp>
#include <parity/properties/lora/lora_problem.hpp>

namespace {

constexpr const char* kHarness = "lora_case_fuzzer";
constexpr double kMaxStorage = 1 << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace parity;
  const auto c = fuzz::parse_case(data, size, kHarness);
  if (!c) return 0;
  fuzz::require_round_trip(*c, kHarness);
  const double T = fuzz::dim_or_1(*c, "T"), N = fuzz::dim_or_1(*c, "N"), K = fuzz::dim_or_1(*c, "K"),
               r = fuzz::dim_or_1(*c, "r");
  const double storage = fuzz::storage_bound(T, K, c->layout("x")) + fuzz::storage_bound(N, K, c->layout("W")) +
                         fuzz::storage_bound(r, K, c->layout("A")) + fuzz::storage_bound(N, r, c->layout("B")) +
                         fuzz::storage_bound(T, N, c->layout("dy"));
  if (storage > kMaxStorage) return -1;
  fuzz::accepted([&] { properties::lora::materialise(*c); }, kHarness, "materialise");
  return 0;
}
