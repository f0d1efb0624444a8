// Every mismatch probe of one family must be detected by some property of that family, on a
// case that parity's own kernel passes, within kMaxCasesPerProperty generated cases of each
// property. A probe that nothing detects is a failure of parity itself.
//
// The properties run as `parity probes` runs them (gen::detect_probe), first with
// kFirstCasesPerProperty cases each, then, while no property detects the probe, with twice as
// many, up to kMaxCasesPerProperty. A detection at any count is a detection by a run a user can
// make (`parity probes FAMILY --cases N`); the output says at which count, and whether that is
// within the family's own count (what `ctest -L properties` runs). Most probes fall within the
// first count, so the properties that do not detect a probe run a few cases, not 200 each.
// A batch-shape probe (ops/framework/batch_shape_probes.hpp) runs only the property it is built
// for, which must detect it: each property draws its cases from the seed whatever else runs, so
// that detection is one `parity probes` makes too, by that property or an earlier one.
// usage: family_probes_test FAMILY
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/core/keep_freed_memory.hpp>
#include <parity/ops/framework/batch_shape_probes.hpp>
#include <parity/oracles/blas.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/properties/tests/gtest_name.hpp>
#include <parity/registry/families.hpp>

namespace {

using parity::gen::Family;

constexpr int kFirstCasesPerProperty = 10;
constexpr int kMaxCasesPerProperty = 200;

// kFirstCasesPerProperty, doubled while below kMaxCasesPerProperty, which is the last.
std::vector<int> case_counts() {
  std::vector<int> counts;
  for (int count = kFirstCasesPerProperty; count < kMaxCasesPerProperty; count *= 2) counts.push_back(count);
  counts.push_back(kMaxCasesPerProperty);
  return counts;
}

class ProbeDetected : public ::testing::Test {
 public:
  ProbeDetected(const Family& family, std::string probe)
      : family_(family), probe_(std::move(probe)), meant_for_(parity::ops::batch_shape_probe_property(probe_)) {}

  void TestBody() override {
    for (const int count : case_counts()) {
      const parity::gen::RunConfig config{.cases = count};
      const auto detection = parity::gen::detect_probe(
          family_, probe_, config, meant_for_.empty() ? std::vector<std::string>{} : std::vector{meant_for_});
      if (!detection) {
        std::cout << "not detected with " << count << " cases per property\n";
        continue;
      }
      std::cout << "detected by " << detection->property << " with " << count << " cases per property ("
                << (count <= family_.cases_per_property() ? "within" : "beyond") << " the family's "
                << family_.cases_per_property() << "), " << detection->cases_to_detect << " cases in all:\n"
                << detection->result.message;
      EXPECT_TRUE(detection->result.reproducer.has_value()) << "no reproducer was written";
      return;
    }
    ADD_FAILURE() << "probe " << probe_ << " was detected by no " << family_.name() << " property"
                  << (meant_for_.empty() ? "" : " (of " + meant_for_ + ", which it is built for)") << " in "
                  << kMaxCasesPerProperty << " cases each";
  }

 private:
  const Family& family_;
  std::string probe_;
  std::string meant_for_;  // a batch-shape probe's property, or "" for every property
};

}  // namespace

int main(int argc, char** argv) {
  parity::keep_freed_memory();   // before any thread (core/keep_freed_memory.hpp)
  parity::oracles::load_blas();  // before any thread (oracles/blas.hpp)
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::cerr << "usage: family_probes_test FAMILY\n";
    return 2;
  }
  try {
    const Family& family = parity::registry::find_family(argv[1]);
    for (const auto& subject : family.subjects()) {
      if (subject.role != parity::gen::SubjectRole::probe) continue;
      const std::string test_name = parity::gtest_name(subject.name);
      ::testing::RegisterTest(
          family.name().c_str(), test_name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
          [&family, name = subject.name]() -> ::testing::Test* { return new ProbeDetected(family, name); });
    }
  } catch (const parity::InputError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  return RUN_ALL_TESTS();
}
