#include <parity/fuzz/harness.hpp>

#include <cstdlib>
#include <exception>
#include <iostream>

#include <nlohmann/json.hpp>

#include <parity/core/error.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/properties/gen/guarded_verdict.hpp>

namespace parity::fuzz {

std::string fuzz_subject(const std::string& fallback) {
  const char* env = std::getenv("PARITY_FUZZ_SUBJECT");
  return env && *env ? std::string(env) : fallback;
}

Verdict run_guarded(const std::string& family, const FuzzInput& in, const std::function<Verdict()>& check) {
  try {
    return check();
  } catch (const InputError& e) {
    std::cerr << "\n==parity== " << family << " decoder bug: a decoded case was refused (" << e.what() << ")\n  "
              << in.c.summary() << "\n  case: " << case_to_json(in.c).dump() << "\n"
              << std::flush;
    __builtin_trap();
  } catch (const std::exception& e) {
    return gen::threw_verdict(in.property, e);
  }
}

namespace {
const std::string kParityReplay = "parity replay";
std::string replay_command = kParityReplay;
}  // namespace

void set_replay_command(std::string command) { replay_command = std::move(command); }

void report_violation(const std::string& family, const std::string& subject, const FuzzInput& in, const Verdict& v) {
  std::cerr << "\n==parity== " << family << "/" << in.property << " violated on " << subject << "\n  " << in.c.summary()
            << "\n  " << v.detail << "\n";
  try {
    const auto path = write_reproducer({subject, in.property, in.c, v}, default_repro_dir());
    std::cerr << "  reproducer: " << path.string() << "\n  replay:     " << replay_command << " " << path.string()
              << "\n";
  } catch (const std::exception& e) {
    std::cerr << "  (no reproducer written: " << e.what() << ")\n";
  }
  if (replay_command == kParityReplay)
    std::cerr << "  shrink:     parity fuzz-repro " << family << " CRASH_FILE --subject " << subject
              << "   (CRASH_FILE: the input libFuzzer saves below)\n";
  std::cerr << std::flush;
  __builtin_trap();
}

}  // namespace parity::fuzz
