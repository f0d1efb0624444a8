// C++ subjects of rms_norm that compute it as parity's host twin does except at some shapes, where
// they fail the way real kernels do (the same faults as crashing_ops.cpp's PyTorch operators):
//   crash-segv   says so on stdout (with a byte that is not UTF-8), then writes through a null
//                pointer, when T >= 40 and D is odd (SIGSEGV)
//   crash-abort  says why on stderr, then calls std::abort, when T >= 24 and D >= 5 (SIGABRT)
//   crash-hang   spins forever when D % 8 == 3 and T >= 2
//   crash-exit   calls std::exit(3) when T >= 8 (a process that ends mid-case)
// Linked with the property main (supervised_worker_test.sh), as a user's subjects are.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <parity/ops/op_families.hpp>
#include <parity/ops/register_op.hpp>

namespace {

using parity::ops::OpCall;
using parity::ops::OpOutputs;
using parity::ops::OpSubject;
using parity::ops::OpSubjectInfo;

enum class Fault { segv, abort, hang, exit };

template <Fault kFault>
class CrashingRmsNorm : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const std::int64_t T = call.input("x").dim(0), D = call.input("x").dim(1);
    volatile std::uintptr_t address = 0;  // opaque to the compiler: a real store to address 0
    volatile bool spinning = true;
    if (kFault == Fault::segv && T >= 40 && D % 2 == 1) {
      std::printf("crash-segv: T=%lld D=%lld, a store through null \xff\n", static_cast<long long>(T),
                  static_cast<long long>(D));
      *reinterpret_cast<volatile int*>(address) = 1;
    }
    if (kFault == Fault::abort && T >= 24 && D >= 5) {
      std::fprintf(stderr, "crash-abort: T=%lld D=%lld is past what it handles\n", static_cast<long long>(T),
                   static_cast<long long>(D));
      std::abort();
    }
    if (kFault == Fault::hang && D % 8 == 3 && T >= 2)
      while (spinning) {
      }
    if (kFault == Fault::exit && T >= 8) std::exit(3);
    return twin_->run(call);
  }

 private:
  std::unique_ptr<OpSubject> twin_ = parity::ops::find_op_family("rms_norm").runnable("parity-host").make();
};

template <Fault kFault>
OpSubjectInfo crashing(const char* name, const char* description) {
  return {.name = name, .backend = "host", .description = description, .make = [] {
            return std::unique_ptr<OpSubject>(std::make_unique<CrashingRmsNorm<kFault>>());
          }};
}

}  // namespace

PARITY_REGISTER_OP_SUBJECT(crash_segv, "rms_norm",
                           crashing<Fault::segv>("crash-segv", "SIGSEGV when T >= 40 and D is odd"));
PARITY_REGISTER_OP_SUBJECT(crash_abort, "rms_norm",
                           crashing<Fault::abort>("crash-abort", "std::abort when T >= 24 and D >= 5"));
PARITY_REGISTER_OP_SUBJECT(crash_hang, "rms_norm",
                           crashing<Fault::hang>("crash-hang", "spins forever when D % 8 == 3 and T >= 2"));
PARITY_REGISTER_OP_SUBJECT(crash_exit, "rms_norm", crashing<Fault::exit>("crash-exit", "exit(3) when T >= 8"));
