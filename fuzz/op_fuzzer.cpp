// op_fuzzer: bytes -> a Case of an op family (decode_op.hpp) -> one property of the op on the
// subject. One harness for every op the program has (parity's, and those its libraries register
// with PARITY_REGISTER_OP: parity_add_op_fuzzer links a user's): the op is $PARITY_FUZZ_OP, or, when
// that is unset or empty, the one the first input byte names (fuzz::op_of_byte: an op's slot,
// hashed from its name, names it whatever ops are added, so the seeds keep their ops; another
// byte names the b % size-th of the ops that have the subject).
//
// Property: the subject-facing properties of the op that apply to the subject (repeatable,
// rows_independent, batch_vs_batch, layout_invariant, forward_accuracy, cross_backend_bitwise;
// the second byte picks one) hold on parity's own kernel, parity-host, or on the subject named
// by $PARITY_FUZZ_SUBJECT. A violation writes a reproducer (family = the op) to
// $PARITY_REPRO_DIR, which `parity replay` replays (a user's program: its property tests' program,
// fuzz::set_replay_command), and traps; `parity fuzz-repro OP CRASH_FILE` shrinks the crash file of
// parity's own ops and subjects. A subject no op has, or an unknown op, exits 2; a subject that cannot run
// here (a CUDA kernel without a device) exits 77.
// Budget: the largest operand at most kOpFuzzElements (2^15) elements, 16 patches, 8 straddles
// within kOpFuzzStraddleBudget; inputs longer than kOpFuzzMaxBytes are refused.
// Feedback: the op x property x output dtype x, per extent, whether it sits at one of its plan
// thresholds (+-1) or not, and the verdict's outcome (fuzz/feedback.hpp).
#include <cstdint>
#include <cstdlib>
#include <iostream>

#include <parity/core/error.hpp>
#include <parity/core/keep_freed_memory.hpp>
#include <parity/fuzz/decode_op.hpp>
#include <parity/fuzz/feedback.hpp>
#include <parity/fuzz/harness.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/oracles/blas.hpp>

namespace {

using namespace parity;

std::string subject_name, fixed_op;
std::vector<std::string> ops_with_subject;  // where the op comes from the first byte

// op (8 ids) x property (8) x first output's dtype (4), then per extent at-threshold bits.
std::uint32_t config_of(const fuzz::FuzzInput& in, const Verdict& v) {
  const ops::OpDecl& d = ops::find_op_family(in.c.family).def().decl;
  std::uint32_t h = fuzz::name_id(in.c.family.c_str()) * 31u + fuzz::name_id(in.property.c_str());
  h = h * 7u + static_cast<std::uint32_t>(in.c.params.at("dtype." + d.outputs.front().group()));
  for (const auto& e : d.extents) {
    const std::int64_t x = in.c.dim(e.name);
    bool near = false;
    for (const auto t : e.thresholds) near = near || (x >= t - 1 && x <= t + 1);
    h = h * 3u + (near ? 1u : 0u) + (x == 1 ? 2u : 0u);
  }
  return h * 3u + static_cast<std::uint32_t>(v.outcome);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  keep_freed_memory();   // before any thread (core/keep_freed_memory.hpp)
  oracles::load_blas();  // before any thread: libFuzzer calls this first (oracles/blas.hpp)
  fuzz::register_config_counters();
  subject_name = fuzz::fuzz_subject("parity-host");
  const char* op = std::getenv("PARITY_FUZZ_OP");
  fixed_op = op && *op ? op : "";
  std::string unavailable;  // why the subject cannot run here, where an op has it
  try {
    for (const std::string& name : fuzz::op_fuzz_ops()) {
      if (!fixed_op.empty() && name != fixed_op) continue;
      try {
        const gen::SubjectEntry s = ops::find_op_family(name).find_subject(subject_name);
        if (s.unavailable.empty()) ops_with_subject.push_back(name);
        else unavailable = s.unavailable;
      } catch (const InputError&) {
        if (!fixed_op.empty()) throw;
      }
    }
    if (!fixed_op.empty() && ops_with_subject.empty() && unavailable.empty())
      ops::find_op_family(fixed_op);  // names the unknown op
    if (ops_with_subject.empty() && unavailable.empty()) throw InputError("no op has the subject " + subject_name);
  } catch (const InputError& e) {
    std::cerr << "op_fuzzer: PARITY_FUZZ_OP / PARITY_FUZZ_SUBJECT: " << e.what() << "\n";
    std::exit(2);
  }
  if (ops_with_subject.empty()) {  // a device subject without a device, LibTorch's without LibTorch: skipped
    std::cerr << "op_fuzzer: subject " << subject_name << " cannot run here: " << unavailable << "\n";
    std::exit(77);
  }
  std::cerr << "op_fuzzer: checking subject " << subject_name << " of "
            << (fixed_op.empty() ? "every op that has it" : fixed_op) << "\n";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > fuzz::kOpFuzzMaxBytes) return -1;
  const std::string& op =
      fixed_op.empty() && size > 0 ? fuzz::op_of_byte(data[0], ops_with_subject) : ops_with_subject.front();
  const fuzz::FuzzInput in = fuzz::decode_op({data, size}, op, subject_name);
  const gen::Family& family = ops::find_op_family(op);
  const Verdict v = fuzz::run_guarded(op, in, [&] { return family.check(subject_name, in.property, in.c); });
  fuzz::observe_config(config_of(in, v));
  if (v.fails()) fuzz::report_violation(op, subject_name, in, v);
  return 0;
}
