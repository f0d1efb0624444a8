// parity fuzz-repro FAMILY CRASH_FILE [--subject S] [--out DIR] [--max-checks N] [--no-shrink]
//
// Turns a libFuzzer crash file of FAMILY's harness (an op's: op_fuzzer's) into a reproducer:
// decodes it with the harness's own decoder for the subject (fuzz/decode.hpp), checks the property the input selects on
// the subject (--subject, else $PARITY_FUZZ_SUBJECT, else the family's default), shrinks the Case with the Case
// shrinker (properties/gen/case_shrink.hpp: RapidCheck's shrink machinery, re-checking after every step), and writes
// the reproducer to --out (default $PARITY_REPRO_DIR, else reports/repros). Exit 0: a reproducer that `parity replay`
// fails on was written; 1: the input does not violate its property on that subject now (nothing written: a sanitizer
// crash, or a fixed bug); 2: usage or input error.
#include <cstdlib>
#include <iostream>

#include <parity/cli/args.hpp>
#include <parity/cli/case_worker_flags.hpp>
#include <parity/cli/commands.hpp>
#include <parity/core/error.hpp>
#include <parity/core/escape.hpp>
#include <parity/core/input_file.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/fuzz/decode.hpp>
#include <parity/properties/gen/case_shrink.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/guarded_verdict.hpp>
#include <parity/registry/families.hpp>

namespace parity::cli {
namespace {

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  const std::string bytes = read_input_file(path);
  return {bytes.begin(), bytes.end()};
}

}  // namespace

int cmd_fuzz_repro(const Args& args) {
  if (args.positional().size() != 2) throw InputError("fuzz-repro needs FAMILY and CRASH_FILE");
  const int max_checks = static_cast<int>(args.number("--max-checks", 3000, 1, kMaxCount));
  const std::string& family_name = args.positional()[0];
  const std::string& file = args.positional()[1];
  const gen::Family& family = registry::find_family(family_name);
  const auto dir = writable_repro_dir(args, "--out");
  const char* env = std::getenv("PARITY_FUZZ_SUBJECT");
  const gen::SubjectEntry subject =
      family.find_subject(args.get("--subject").value_or(env && *env ? env : family.default_subject()));
  if (!subject.unavailable.empty())
    throw InputError("subject " + subject.name + " cannot run here: " + subject.unavailable);
  const fuzz::FuzzInput in = fuzz::decode_for_family(family_name, read_bytes(file), subject.name);

  family.find_property(in.property);
  try {
    family.rules().check_contract(in.c);
  } catch (const InputError& e) {
    throw InputError(file + ": the decoded case is refused: " + e.what());
  }
  const auto worker = case_worker(args, std::nullopt);
  const auto check = [&](const Case& c) {
    return gen::case_verdict(family, subject.name, in.property, c, worker.get());
  };
  Verdict v = check(in.c);
  std::cout << family_name << "/" << in.property << " on " << subject.name << ": " << in.c.summary() << "\n";
  if (!v.fails()) {
    std::cout << "  does not fail now (" << outcome_name(v.outcome) << "): " << v.detail
              << "\n  no reproducer written\n";
    return 1;
  }
  std::cout << "  fails: " << v.detail << "\n";

  Case shrunk = in.c;
  if (!args.has("--no-shrink")) {
    const FailureKind kind = v.kind;  // a shrink keeps the failure's kind
    const auto still_fails = [&](const Case& c) { return gen::reproduces(check(c), kind); };
    const auto r = gen::shrink_case(in.c, still_fails, {.max_evaluations = max_checks});
    shrunk = r.shrunk;
    v = check(shrunk);
    std::cout << "  shrunk in " << r.steps << " steps (" << r.evaluations << " checks"
              << (r.exhausted ? ", stopped at --max-checks" : "") << ") to:\n  " << shrunk.summary() << "\n  "
              << v.detail << "\n";
    if (!gen::reproduces(v, kind)) {
      std::cout << "  the shrunk case did not fail when run again: the subject is nondeterministic\n";
      return 1;
    }
  }
  const auto path = write_reproducer({subject.name, in.property, shrunk, v}, dir);
  std::cout << "  reproducer: " << path.string() << "\n  replay:     parity replay " << path.string() << "\n";
  return 0;
}

}  // namespace parity::cli
