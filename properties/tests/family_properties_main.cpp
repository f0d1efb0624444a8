// The main of every property test: each subject-facing property of one family against one
// subject, over generated cases. parity's own family_properties_test and a user's
// <target>_parity_tests (parity_add_subject_tests) are this main linked with the subjects.
//
// usage: <test> FAMILY [SUBJECT] [gtest flags]   (SUBJECT: the family's default kernel)
// Exit: 0 every applicable property holds, 1 some property failed, 2 usage or registration
// error, 77 (ctest: skipped) when the subject cannot run here, e.g. a CUDA kernel without a
// device. A property the subject lacks a capability for is skipped as not applicable. The last
// line says which ("parity: ..."); parity_add_subject_tests(... WILL_FAIL) relies on it. A failure
// prints the shrunk case and the command that replays its reproducer.
#include <gtest/gtest.h>

#include <iostream>

#include "core/error.hpp"
#include "properties/gen/family.hpp"

namespace {

using parity::gen::Family;

class PropertyHolds : public ::testing::Test {
 public:
  PropertyHolds(const Family& family, std::string subject, std::string property)
      : family_(family), subject_(std::move(subject)), property_(std::move(property)) {}

  void TestBody() override {
    const auto result = family_.run(subject_, property_, {});
    if (!result.not_applicable.empty()) GTEST_SKIP() << "not applicable: " << result.not_applicable;
    EXPECT_TRUE(result.passed) << result.message;
    EXPECT_GT(result.cases, 0) << "no case reached a verdict";
    if (result.passed) std::cout << result.message << "\n";
  }

 private:
  const Family& family_;
  std::string subject_, property_;
};

// Registers one test per subject-facing property; returns 0, or the exit status that ends the run.
int register_properties(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: " << argv[0] << " FAMILY [SUBJECT]\nparity: error: usage\n";
    return 2;
  }
  const Family& family = parity::gen::find_family(argv[1]);
  const auto subject = family.find_subject(argc > 2 ? argv[2] : family.default_subject());
  if (subject.role != parity::gen::SubjectRole::implementation) {
    std::cerr << subject.name << " is not registered as an implementation (kind " << parity::subjects::subject_kind_name(subject.role)
              << "): its failures are findings or detections, not test failures\nparity: error: not an implementation\n";
    return 2;
  }
  if (!subject.unavailable.empty()) {
    std::cout << subject.name << " skipped: " << subject.unavailable << "\nparity: skipped\n";
    return 77;
  }
  for (const auto& property : family.properties()) {
    if (!property.needs_subject) continue;
    ::testing::RegisterTest(family.name().c_str(), property.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [&family, name = subject.name, p = property.name]() -> ::testing::Test* {
                              return new PropertyHolds(family, name, p);
                            });
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  try {
    if (const int status = register_properties(argc, argv); status != 0) return status;
  } catch (const parity::InputError& e) {
    std::cerr << e.what() << "\nparity: error: " << e.what() << "\n";
    return 2;
  }
  const int status = RUN_ALL_TESTS();
  const auto* unit = ::testing::UnitTest::GetInstance();
  if (unit->failed_test_count() > 0)
    std::cout << "parity: properties failed: " << unit->failed_test_count() << "\n";
  else
    std::cout << "parity: every applicable property holds (" << unit->successful_test_count() << " hold, "
              << unit->skipped_test_count() << " not applicable)\n";
  return status;
}
