// transition_fuzzer: bytes -> a transition Case (decode_transition.hpp) -> one transition
// property on the subject.
//
// Property: scoring_reproduces_sampling (decode_transition.hpp; batch invariance and accuracy
// are the ops transition_step and transition_score's, fuzzed by op_fuzzer) holds on parity's own
// kernel, parity-host, or on the subject named by $PARITY_FUZZ_SUBJECT.
// A violation writes a reproducer to $PARITY_REPRO_DIR and traps.
// Budget: B <= 64 (1-8, or one of the realistic batch sizes 9-64), n = tokens x channels <=
// 4096, B n <= kTransitionWorkBudget (2^15: decode_transition.hpp), 16 patches; longer inputs
// are refused.
// Feedback: the row length's class relative to the kernel's 256-lane reduction tree, the
// batch size's class, the step type and the latent dtype, and the verdict's outcome per
// property (fuzz/feedback.hpp).
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>

#include <parity/core/error.hpp>
#include <parity/fuzz/decode_transition.hpp>
#include <parity/fuzz/feedback.hpp>
#include <parity/fuzz/harness.hpp>
#include <parity/properties/transition/transition_properties.hpp>

namespace {

using namespace parity;
using subjects::TransitionSubject;

constexpr std::size_t kMaxInputBytes = 18 + 3 * fuzz::kTransitionMaxRows + 8 * 16;
constexpr std::int64_t kLanes = 256;  // subjects/builtin/transition_arith.cuh kLanes

std::string subject_name;
std::unique_ptr<TransitionSubject> subject;

// Where a row of n elements falls against the lane tree: below it (a power of two or not),
// exactly one pass, just over (some lanes take two), whole passes, other: in [0, 6).
std::uint32_t row_class(std::int64_t n) {
  if (n < kLanes) return (n & (n - 1)) == 0 ? 0 : 1;
  if (n == kLanes) return 2;
  if (n < 2 * kLanes) return 3;
  return n % kLanes == 0 ? 4 : 5;
}

// Row class x batch class (1, 2-4, 5-8, 9-16, 17-64) x step (sde, cps, sde without
// normaliser) x latent dtype, in [0, 180); then property x outcome in [192, 201).
std::uint32_t shape_config(const Case& c) {
  const std::int64_t B = c.dim("B"), n = c.dim("tokens") * c.dim("channels");
  const std::uint32_t batch = B == 1 ? 0 : B <= 4 ? 1 : B <= 8 ? 2 : B <= 16 ? 3 : 4;
  const std::uint32_t step = c.param("cps", 0.0) != 0.0 ? 1 : c.param("normaliser", 1.0) == 0.0 ? 2 : 0;
  const std::uint32_t bf16 = c.param("bf16_inputs", 0.0) != 0.0 ? 1 : 0;
  return ((row_class(n) * 5 + batch) * 3 + step) * 2 + bf16;
}

std::uint32_t outcome_config(const std::string& property, const Verdict& v) {
  const auto& props = fuzz::transition_fuzz_properties();
  std::uint32_t p = 0;
  while (p < props.size() && props[p] != property) ++p;
  return 192 + p * 3 + static_cast<std::uint32_t>(v.outcome);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::register_config_counters();
  subject_name = fuzz::fuzz_subject("parity-host");
  try {
    const auto& info = subjects::find_transition_subject(subject_name);
    if (const std::string why = info.unavailable_reason(); !why.empty())
      throw InputError("subject " + subject_name + " cannot run here: " + why);
    subject = info.make();
  } catch (const InputError& e) {
    std::cerr << "transition_fuzzer: PARITY_FUZZ_SUBJECT: " << e.what() << "\n";
    std::exit(2);
  }
  std::cerr << "transition_fuzzer: checking subject " << subject_name << "\n";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;
  const fuzz::FuzzInput in = fuzz::decode_transition({data, size});
  const auto& property = properties::transition::find_transition_property(in.property);
  const Verdict v = fuzz::run_guarded("transition", in, [&] { return property.check(in.c, subject.get()); });
  fuzz::observe_config(shape_config(in.c));
  fuzz::observe_config(outcome_config(in.property, v));
  if (v.fails()) fuzz::report_violation("transition", subject_name, in, v);
  return 0;
}
