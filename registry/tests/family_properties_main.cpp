// The main of every property test: each subject-facing property of one family against one
// subject, over generated cases; and the replay of their reproducers. parity's own
// family_properties_test and a user's <target>_parity_tests (parity_add_subject_tests) are this
// main linked with the subjects, so both know every subject they test.
//
// usage: <test> FAMILY [SUBJECT] [gtest flags]   (SUBJECT: the family's default kernel;
// parity-oracles: the family's self-checks of parity's own oracles instead)
// Exit: 0 every applicable property holds, 1 some property failed, 2 usage or registration
// error, 77 (ctest: skipped) when the subject cannot run here, e.g. a CUDA kernel without a
// device. A property the subject lacks a capability for is skipped as not applicable. The last
// line says which ("parity: ..."); parity_add_subject_tests(... WILL_FAIL) relies on it. A failure
// prints the shrunk case, the command that reruns it exactly (the PARITY_MAX_* caps set,
// PARITY_SEED, PARITY_CASES and a --gtest_filter) and the command that replays its reproducer: this program's --replay.
//
// usage: <test> FAMILY [SUBJECT] --torch-op SCHEMA [--library FILE] [--torch-arg A=B,...] [--torch-device D]
//                                 [--kernel-op OP] [--torch-returns O,...]
//        <test> --replay [--subject S] --torch-op SCHEMA ... FILE|DIR...
// A PyTorch operator as a subject of an op family, or as the kernel of linear (or --kernel-op's op)
// inside the model's or the trajectory's subjects, as `parity check --torch-op`
// (ops/torch_op/torch_op.hpp): registered
// first, the default SUBJECT then, and the operator's own name as SUBJECT stands for it; the rerun
// and replay commands a failure prints carry the same flags. parity_add_subject_tests(OP|FAMILY ...
// TORCH_OP ...) runs this program so.
//
// usage: <test> FAMILY [SUBJECT] [--dtypes D,...] [--param NAME=VALUE,...]
// An op family's cases restricted to what the subject supports, as `parity check` restricts them
// (properties/gen/case_restrictions.hpp); the rerun command a failure prints carries them.
// parity_add_subject_tests(... DTYPES ... PARAMS ...) runs this program so.
//
// usage: <test> --gtest_list_tests
// Lists family.property for every subject-facing property of every family, without running
// anything: what gtest_discover_tests reads to register one ctest test per property
// (parity_add_property_tests, cmake/ParitySubjectTests.cmake), each then run as
// <test> --gtest_filter=family.property FAMILY SUBJECT.
//
// usage: <test> --replay [--subject S] FILE|DIR...
// Re-runs each reproducer's property on its subject (or on S) from this program's subjects, as
// `parity replay` does with parity's own (registry/replay.hpp). Exit: 0 all pass now, 1
// some still fail, 2 usage or input error (a bad file, an unknown subject or property).
//
// Every case runs in a supervised worker, this program started again as `<test> --worker [--torch-op
// ...]` (registry/case_worker_server.hpp): a subject that crashes, aborts, hangs past $PARITY_TIMEOUT
// seconds (default 60) or loses its CUDA context fails the case with that kind, and the test prints
// its shrunk case and reproducer. --in-process (anywhere on the line) runs the subject in this
// process instead, for a debugger.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include <parity/core/error.hpp>
#include <parity/core/escape.hpp>
#include <parity/core/keep_freed_memory.hpp>
#include <parity/ops/torch_op/torch_op.hpp>
#include <parity/oracles/blas.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/run_property.hpp>
#include <parity/registry/case_worker_server.hpp>
#include <parity/registry/families.hpp>
#include <parity/registry/replay.hpp>
#include <parity/registry/torch_op_registration.hpp>

namespace {

using parity::gen::Family;
using parity::gen::RunConfig;

class PropertyHolds : public ::testing::Test {
 public:
  PropertyHolds(const Family& family, std::string subject, std::string property, RunConfig config)
      : family_(family), subject_(std::move(subject)), property_(std::move(property)), config_(std::move(config)) {}

  void TestBody() override {
    const auto result = family_.run(subject_, property_, config_);
    if (!result.not_applicable.empty()) GTEST_SKIP() << "not applicable: " << result.not_applicable;
    EXPECT_TRUE(result.passed) << result.message;
    EXPECT_GT(result.cases, 0) << "no case reached a verdict";
    if (result.passed) std::cout << result.message << "\n";
  }

 private:
  const Family& family_;
  std::string subject_, property_;
  RunConfig config_;
};

// A listed test, never run: --gtest_list_tests only names it.
class Listed : public ::testing::Test {
  void TestBody() override { FAIL() << "listed by --gtest_list_tests only: run with FAMILY SUBJECT"; }
};

// Registers family.property for every subject-facing property of every family, to be listed.
void register_listing() {
  for (const Family* family : parity::registry::families())
    for (const auto& property : family->properties())
      if (property.needs_subject)
        ::testing::RegisterTest(family->name().c_str(), property.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                                []() -> ::testing::Test* { return new Listed; });
}

// The --torch-op flags, taken out of argv: the spec, and the flags as a command's words.
struct TorchOpFlags {
  std::optional<parity::ops::TorchOpSpec> spec;
  std::string words;              // " --torch-op mylib::rms_norm --library libmylib.so"
  std::vector<std::string> args;  // the same, one argument each
};

TorchOpFlags take_torch_op_flags(int& argc, char** argv) {
  std::map<std::string, std::string> values;
  std::string words;
  std::vector<std::string> args;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!parity::ops::is_torch_op_flag(arg)) {
      argv[kept++] = argv[i];
      continue;
    }
    if (i + 1 == argc) throw parity::InputError(arg + " needs a value");
    values[arg] = argv[++i];
    words += " " + arg + " " + values[arg];
    args.insert(args.end(), {arg, values[arg]});
  }
  argc = kept;
  return {parity::ops::torch_op_spec_of(values), words, args};
}

// Whether --in-process is on the line (taken out of argv).
bool take_in_process(int& argc, char** argv) {
  bool found = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--in-process") found = true;
    else argv[kept++] = argv[i];
  argc = kept;
  return found;
}

// The worker this program's cases run in: itself, as --worker with the operator's flags.
std::shared_ptr<parity::gen::CaseWorker> case_worker(const TorchOpFlags& torch_op) {
  parity::gen::WorkerOptions options;
  options.command = {parity::gen::this_program(), "--worker"};
  options.command.insert(options.command.end(), torch_op.args.begin(), torch_op.args.end());
  options.timeout_seconds = parity::gen::default_case_timeout();
  options.timeout_setting = "PARITY_TIMEOUT";
  return std::make_shared<parity::gen::CaseWorker>(std::move(options));
}

// --dtypes and --param, taken out of argv.
parity::gen::CaseRestrictions take_restrictions(int& argc, char** argv) {
  parity::gen::CaseRestrictions r;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg != "--dtypes" && arg != "--param") {
      argv[kept++] = argv[i];
      continue;
    }
    if (i + 1 == argc) throw parity::InputError(arg + " needs a value");
    if (arg == "--dtypes") r.dtypes = parity::gen::parse_dtype_list(argv[++i], arg);
    else r.params = parity::gen::parse_param_values(argv[++i], arg);
  }
  argc = kept;
  return r;
}

// Registers one test per subject-facing property; returns 0, or the exit status that ends the run.
int register_properties(int argc, char** argv, const TorchOpFlags& torch_op,
                        const parity::gen::CaseRestrictions& restrictions,
                        const std::shared_ptr<parity::gen::CaseWorker>& worker) {
  if (argc == 1 && GTEST_FLAG_GET(list_tests)) {
    register_listing();
    return 0;
  }
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: " << argv[0] << " FAMILY [SUBJECT] [--dtypes D,...] [--param NAME=VALUE,...]\n       "
              << argv[0] << " --replay [--subject S] FILE|DIR...\nparity: error: usage\n";
    return 2;
  }
  const Family& family = parity::registry::find_family(argv[1]);
  parity::gen::resolve_extent_caps(family.name(), family.extent_caps(), {});  // PARITY_MAX_* checked before any run
  family.check_restrictions(restrictions);
  const std::string default_subject =
      torch_op.spec ? parity::registry::register_torch_op(family.name(), *torch_op.spec) : family.default_subject();
  // The operator's own name (parity_add_subject_tests' SUBJECT for TORCH_OP) stands for the
  // family's subject that runs it: itself in an op family, runtime-host+OP=NAME in the model and
  // bound-all+OP=NAME in the trajectory (OP linear, or --kernel-op's).
  const std::string wanted = argc > 2 ? argv[2] : default_subject;
  const bool the_operator = torch_op.spec && wanted == parity::ops::torch_op_subject_name(*torch_op.spec);
  const auto subject = family.find_subject(the_operator ? default_subject : wanted);
  if (subject.role != parity::gen::SubjectRole::implementation) {
    std::cerr
        << subject.name << " is not registered as an implementation (kind "
        << parity::subjects::subject_kind_name(subject.role)
        << "): its failures are findings or detections, not test failures\nparity: error: not an implementation\n";
    return 2;
  }
  if (!subject.unavailable.empty()) {
    std::cout << subject.name << " skipped: " << subject.unavailable << "\nparity: skipped\n";
    return 77;
  }
  // This program knows its subjects: it replays, and reruns a property on the same seed and case count.
  const std::string program = argv[0];
  const RunConfig config{.replay_command = program + " --replay" + torch_op.words,
                         .rerun_command =
                             [program, family = family.name(), subject = subject.name,
                              caps = parity::gen::extent_cap_assignments(family.extent_caps()),
                              words = restrictions.flag_words() + torch_op.words](const std::string& property,
                                                                                  std::uint64_t seed, int cases) {
                               return caps + "PARITY_SEED=" + std::to_string(seed) +
                                      " PARITY_CASES=" + std::to_string(cases) + " " + program + " " + family + " " +
                                      subject + " --gtest_filter=" + family + "." + property + words;
                             },
                         .restrictions = restrictions,
                         .worker = worker};
  for (const auto& property : family.properties()) {
    // parity-oracles gets the self-checks of parity's oracles, a real subject everything else.
    if (property.needs_subject == (subject.name == parity::gen::kOraclesSubject)) continue;
    ::testing::RegisterTest(family.name().c_str(), property.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [&family, name = subject.name, p = property.name, config]() -> ::testing::Test* {
                              return new PropertyHolds(family, name, p, config);
                            });
  }
  return 0;
}

// `--replay [--subject S] FILE|DIR...` (argv[1] is --replay): the exit status.
int replay(int argc, char** argv, const TorchOpFlags& torch_op, parity::gen::CaseWorker* worker) {
  std::optional<std::string> subject;
  std::vector<std::string> inputs;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--subject") {
      if (i + 1 == argc) throw parity::InputError("--subject needs a value");
      subject = argv[++i];
    } else if (arg.starts_with("-")) {
      throw parity::InputError("unknown flag '" + arg + "' (usage: " + argv[0] +
                               " --replay [--subject S] FILE|DIR...)");
    } else {
      inputs.push_back(arg);
    }
  }
  if (torch_op.spec) parity::registry::register_torch_op_for_reproducers(inputs, *torch_op.spec);
  return parity::registry::replay_reproducers(inputs, subject, std::cout, nullptr, worker) ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  parity::keep_freed_memory();   // before any thread (core/keep_freed_memory.hpp)
  parity::oracles::load_blas();  // before any thread (oracles/blas.hpp)
  if (argc > 1 && std::string(argv[1]) == "--worker")
    return parity::registry::serve_case_checks({argv + 2, argv + argc});
  ::testing::InitGoogleTest(&argc, argv);
  try {
    parity::gen::check_environment();
    const TorchOpFlags torch_op = take_torch_op_flags(argc, argv);
    const parity::gen::CaseRestrictions restrictions = take_restrictions(argc, argv);
    const auto worker = take_in_process(argc, argv) ? nullptr : case_worker(torch_op);
    if (argc > 1 && std::string(argv[1]) == "--replay") {
      if (!restrictions.empty())
        throw parity::InputError("--replay: a reproducer's case is fixed; give no --dtypes or --param");
      return replay(argc, argv, torch_op, worker.get());
    }
    if (const int status = register_properties(argc, argv, torch_op, restrictions, worker); status != 0) return status;
  } catch (const parity::InputError& e) {  // its message is escaped
    std::cerr << e.what() << "\nparity: error: " << e.what() << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    const std::string message = parity::escaped(e.what());
    std::cerr << message << "\nparity: error: " << message << "\n";
    return 2;
  }
  const int status = RUN_ALL_TESTS();
  const auto* unit = ::testing::UnitTest::GetInstance();
  if (unit->failed_test_count() > 0) std::cout << "parity: properties failed: " << unit->failed_test_count() << "\n";
  else
    std::cout << "parity: every applicable property holds (" << unit->successful_test_count() << " hold, "
              << unit->skipped_test_count() << " not applicable)\n";
  return status;
}
