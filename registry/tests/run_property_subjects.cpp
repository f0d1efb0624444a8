// Two deliberately wrong LoRA subjects for run_property_cli_test.sh, linked with parity's
// property main (the way a user's property test is built), each a wrapper of parity-host:
//
//   test-nondeterministic  every third forward call in the process returns y[0] one bf16 step
//                          off, as a kernel whose reduction order changes between calls would:
//                          `repeatable` fails, and only on some runs of one case.
//   test-wrong-from-t16    with 16 or more rows, the first element of every row of y is one bf16
//                          step off, so `rows_independent` fails, and only on cases large enough
//                          that RapidCheck draws them after its first few small ones.
#include <memory>

#include <parity/subjects/lora_family.hpp>
#include <parity/subjects/subject_registry.hpp>

namespace {

using parity::Tensor;
using parity::subjects::LoraGradients;
using parity::subjects::LoraInputs;
using parity::subjects::LoraSubject;
using parity::subjects::LoraSubjectInfo;

void nudge(Tensor& y, std::int64_t i) { y.set_bits(i, y.bits_at(i) ^ 1u); }

class Wrapper : public LoraSubject {
 public:
  LoraGradients backward(const LoraInputs& in, const Tensor& dy) override { return host_->backward(in, dy); }

 protected:
  std::unique_ptr<LoraSubject> host_ = parity::subjects::find_lora_subject("parity-host").make();
};

class Nondeterministic final : public Wrapper {
 public:
  Tensor forward(const LoraInputs& in) override {
    static int calls = 0;
    Tensor y = host_->forward(in);
    if (++calls % 3 == 0) nudge(y, 0);
    return y;
  }
};

class WrongFromT16 final : public Wrapper {
 public:
  Tensor forward(const LoraInputs& in) override {
    Tensor y = host_->forward(in);
    const std::int64_t T = y.dim(0), N = y.dim(1);
    if (T >= 16)
      for (std::int64_t t = 0; t < T; ++t) nudge(y, t * N);
    return y;
  }
};

}  // namespace

PARITY_REGISTER_SUBJECT(test_nondeterministic,
                        LoraSubjectInfo{
                            .name = "test-nondeterministic",
                            .backend = "host",
                            .description = "parity-host, one bf16 step off at y[0] on every third forward call",
                            .make = [] { return std::unique_ptr<LoraSubject>(std::make_unique<Nondeterministic>()); }});

PARITY_REGISTER_SUBJECT(test_wrong_from_t16,
                        LoraSubjectInfo{
                            .name = "test-wrong-from-t16",
                            .backend = "host",
                            .description = "parity-host, one bf16 step off at each row's first y element once T >= 16",
                            .make = [] { return std::unique_ptr<LoraSubject>(std::make_unique<WrongFromT16>()); }});
