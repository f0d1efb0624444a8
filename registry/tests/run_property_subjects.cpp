// Two deliberately wrong subjects of lora_forward for run_property_cli_test.sh, linked with
// parity's property main (the way a user's property test is built), each a wrapper of parity's
// host twin:
//
//   test-nondeterministic  every third call in the process returns y[0] one bf16 step off, as a
//                          kernel whose reduction order changes between calls would: `repeatable`
//                          fails, and only on some runs of one case.
//   test-wrong-from-t16    with 16 or more rows, the first element of every row of y is one bf16
//                          step off, so `rows_independent` fails, and only on cases large enough
//                          that RapidCheck draws them after its first few small ones.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/lora_forward/lora_host.hpp>

namespace {

using parity::Tensor;
using parity::ops::OpCall;
using parity::ops::OpOutputs;
using parity::ops::OpSubjectInfo;
using Host = parity::ops::lora_forward::ForwardHost<parity::ops::lora_forward::StandardArithmetic>;

void nudge(Tensor& y, std::int64_t i) { y.set_bits(i, y.bits_at(i) ^ 1u); }

class Nondeterministic final : public parity::ops::OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    static int calls = 0;
    OpOutputs out = host_.run(call);
    if (++calls % 3 == 0) nudge(out.at("y"), 0);
    return out;
  }

 private:
  Host host_;
};

class WrongFromT16 final : public parity::ops::OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    OpOutputs out = host_.run(call);
    Tensor& y = out.at("y");
    const std::int64_t T = y.dim(0), N = y.dim(1);
    if (T >= 16)
      for (std::int64_t t = 0; t < T; ++t) nudge(y, t * N);
    return out;
  }

 private:
  Host host_;
};

}  // namespace

PARITY_REGISTER_OP_SUBJECT(test_nondeterministic, "lora_forward",
                           OpSubjectInfo{.name = "test-nondeterministic",
                                         .backend = "host",
                                         .description = "parity-host, one bf16 step off at y[0] on every third call",
                                         .make = &parity::ops::make_op_subject<Nondeterministic>});

PARITY_REGISTER_OP_SUBJECT(
    test_wrong_from_t16, "lora_forward",
    OpSubjectInfo{.name = "test-wrong-from-t16",
                  .backend = "host",
                  .description = "parity-host, one bf16 step off at each row's first y element once T >= 16",
                  .make = &parity::ops::make_op_subject<WrongFromT16>});
