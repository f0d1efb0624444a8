// lora_fuzzer: bytes -> a LoRA Case (decode_lora.hpp) -> one LoRA property on the subject.
//
// Property: every LoRA property that takes a subject and needs no LibTorch (repeatable,
// rows_independent, layout_invariant, base_frozen, zero_adapter_gradients, forward_accuracy,
// gradient_accuracy; the first input byte picks one) holds on parity's own kernel,
// parity-host, or on the subject named by $PARITY_FUZZ_SUBJECT (e.g. a probe, which must
// be caught). A violation writes a reproducer to $PARITY_REPRO_DIR and traps.
// Budget: one forward's multiply-adds at most kLoraWorkBudget (2^18; extents small, <= 32 and
// r <= 16, or realistic, up to 8193 and r 128: decode_lora.hpp), 16 patches; inputs longer
// than the format are refused.
// Feedback: the path each forward and backward call took (LoraSubject::last_path) by row
// count, and the case's K class, layouts and verdict outcome (fuzz/feedback.hpp).
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>

#include <parity/core/error.hpp>
#include <parity/fuzz/decode_lora.hpp>
#include <parity/fuzz/feedback.hpp>
#include <parity/fuzz/harness.hpp>
#include <parity/properties/lora/lora_properties.hpp>

namespace {

using namespace parity;
using subjects::LoraGradients;
using subjects::LoraInputs;
using subjects::LoraSubject;

constexpr std::size_t kMaxInputBytes = 20 + 8 * fuzz::kMaxPatches;

// 1, 2-16, 17-32, 33-64, 65-128, 129-512, 513-2048, more: [0, 8).
int rows_class(std::int64_t rows) {
  int c = 0;
  for (const std::int64_t edge : {1, 16, 32, 64, 128, 512, 2048})
    if (rows > edge) ++c;
  return c;
}

// Forwards to the subject under test and reports the path of every call as a configuration:
// 8 path ids x 8 row classes x forward/backward, in [0, 128).
class PathRecorder final : public LoraSubject {
 public:
  explicit PathRecorder(LoraSubject& inner) : inner_(inner) {}
  Tensor forward(const LoraInputs& in) override {
    Tensor y = inner_.forward(in);
    note(in, 0);
    return y;
  }
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override {
    LoraGradients g = inner_.backward(in, dy);
    note(in, 1);
    return g;
  }
  subjects::LoraPath last_path() const override { return inner_.last_path(); }

 private:
  // A fixed id per known path (a hash modulo 8 put host-split-k and host-fma-chain together).
  static std::uint32_t path_id(const std::string& name) {
    static const char* const known[] = {"fixed",      "host-fma-chain", "host-split-k",
                                        "cuda-tiled", "torch-cpu",      "torch-cuda"};
    for (std::uint32_t i = 0; i < std::size(known); ++i)
      if (name == known[i]) return i;
    return 7;
  }

  void note(const LoraInputs& in, int backward) {
    const auto path = path_id(inner_.last_path().name);
    fuzz::observe_config(path * 16 + static_cast<std::uint32_t>(rows_class(in.x.dim(0)) * 2 + backward));
  }
  LoraSubject& inner_;
};

std::string subject_name;
std::unique_ptr<LoraSubject> subject;

// The case's K class (1, < 16, a multiple of 16, other; then the same above 1024), whether any
// operand is laid out non-contiguously, and the verdict's outcome: in [128, 128 + 48).
std::uint32_t case_config(const Case& c, const Verdict& v) {
  const std::int64_t K = c.dim("K");
  const std::uint32_t k = (K == 1 ? 0 : K < 16 ? 1 : K % 16 == 0 ? 2 : 3) + (K > 1024 ? 4 : 0);
  return 128 + (k * 2 + (c.layouts.empty() ? 0u : 1u)) * 3 + static_cast<std::uint32_t>(v.outcome);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::register_config_counters();
  subject_name = fuzz::fuzz_subject("parity-host");
  try {
    const auto& info = subjects::find_lora_subject(subject_name);
    if (const std::string why = info.unavailable_reason(); !why.empty())
      throw InputError("subject " + subject_name + " cannot run here: " + why);
    subject = info.make();
  } catch (const InputError& e) {
    std::cerr << "lora_fuzzer: PARITY_FUZZ_SUBJECT: " << e.what() << "\n";
    std::exit(2);
  }
  std::cerr << "lora_fuzzer: checking subject " << subject_name << "\n";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;
  const fuzz::FuzzInput in = fuzz::decode_lora({data, size});
  const auto& property = properties::lora::find_lora_property(in.property);
  PathRecorder recorder(*subject);
  const Verdict v = fuzz::run_guarded("lora", in, [&] { return property.check(in.c, &recorder); });
  fuzz::observe_config(case_config(in.c, v));
  if (v.fails()) fuzz::report_violation("lora", subject_name, in, v);
  return 0;
}
