// bridge_case_fuzzer: bytes -> JSON -> case_from_json -> properties::bridge::
// materialise_bridge -> the float64 tiny GPT's forward and manual backward, whose token
// validation (oracles::validate_tokens) is the refusal every bridge path shares.
//
// Property: a bridge Case either computes or is refused with an InputError (never another
// exception, a crash or a leak), and a parsed Case round-trips through JSON exactly. Inputs
// may be a Case object or a whole reproducer. Every bridge property compares against LibTorch
// autograd, which the fuzz build does not link (LibTorch stays uninstrumented), so this
// validator is the bridge family's harness.
// Budget: Cases with more than 2^18 parameters or 64 tokens are skipped (cost guard).
#include <cstdint>

#include <parity/fuzz/json_case.hpp>
#include <parity/oracles/tiny_gpt.hpp>
#include <parity/properties/bridge/bridge_problem.hpp>

namespace {

constexpr const char* kHarness = "bridge_case_fuzzer";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace parity;
  const auto c = fuzz::parse_case(data, size, kHarness);
  if (!c) return 0;
  fuzz::require_round_trip(*c, kHarness);
  const double d = fuzz::dim_or_1(*c, "d");
  const double params = (2 * fuzz::dim_or_1(*c, "vocab") + fuzz::dim_or_1(*c, "max_len") + 4 * d +
                         2 * fuzz::dim_or_1(*c, "hidden") + 10) *
                        d;
  if (params > (1 << 18) || fuzz::dim_or_1(*c, "len") > 64) return -1;
  properties::bridge::BridgeProblem p;
  if (!fuzz::accepted([&] { p = properties::bridge::materialise_bridge(*c); }, kHarness, "materialise_bridge"))
    return 0;
  fuzz::accepted([&] { oracles::tiny_gpt_forward_backward(p.config, p.params, p.ids, p.targets); }, kHarness,
                 "tiny_gpt_forward_backward");
  return 0;
}
