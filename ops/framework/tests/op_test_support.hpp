#pragma once
// What an op's unit test asks of its op family: hand-made cases (case_of.hpp), the declaration
// and reference, a fresh instance of one of its subjects (from the family, or from the op's name:
// OpUnderTest), and a probe's detection rate over seeds.
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/framework/tests/case_of.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::ops::testing {

// The declaration and reference of the op family `f`.
inline const OpDef& def_of(const gen::Family& f) { return dynamic_cast<const OpFamily&>(f).def(); }

// A fresh instance of the subject `name` of the op family `f` (parity's own registered first);
// std::logic_error when it has none of that name.
inline std::unique_ptr<OpSubject> make_subject(const gen::Family& f, const std::string& name) {
  f.subjects();
  for (const auto& s : op_subjects(f.name()))
    if (s.name == name) return s.make();
  throw std::logic_error(f.name() + " has no subject " + name);
}

// The shipped op `name` as a unit test uses it: `const OpUnderTest op{"rms_norm"};` then
// op.def(), op.make("parity-host"). The family is looked up at each call, never before main.
struct OpUnderTest {
  std::string name;

  const OpFamily& family() const { return find_op_family(name); }
  const OpDef& def() const { return family().def(); }
  // As make_subject(family(), subject).
  std::unique_ptr<OpSubject> make(const std::string& subject) const { return make_subject(family(), subject); }
};

// How many of the seeds 1..seeds (as PARITY_SEED gives them) a default run of the op family `f`
// (its case count and caps, as `parity check` and `parity probes` use them, shrinking off) detects
// `probe` in, as `parity probes` counts it (on a case parity's kernel passes); each seed missed,
// and the count, printed.
inline int detecting_seeds(const gen::Family& f, const std::string& probe, int seeds) {
  int detected = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    gen::RunConfig config;  // cases 0: the family's default
    config.seed = static_cast<std::uint64_t>(seed);
    config.shrink = false;
    config.write_reproducer = false;
    if (gen::detect_probe(f, probe, config)) ++detected;
    else std::cout << probe << ": seed " << seed << " not detected\n";
  }
  std::cout << probe << ": detected in " << detected << " of " << seeds << " seeds at " << f.cases_per_property()
            << " cases per property\n";
  return detected;
}

}  // namespace parity::ops::testing
