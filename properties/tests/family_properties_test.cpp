// Every subject-facing property of one family against one subject, over generated cases.
// usage: family_properties_test FAMILY [SUBJECT]   (SUBJECT: the family's default kernel)
// Exits 77 (ctest: skipped) when the subject cannot run here, e.g. a CUDA kernel without a
// device. A failure prints the shrunk case and the command that replays its reproducer.
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
    EXPECT_TRUE(result.passed) << result.message;
    EXPECT_GT(result.cases, 0) << "no case reached a verdict";
    if (result.passed) std::cout << result.message << "\n";
  }

 private:
  const Family& family_;
  std::string subject_, property_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: family_properties_test FAMILY [SUBJECT]\n";
    return 2;
  }
  try {
    const Family& family = parity::gen::find_family(argv[1]);
    const auto subject = family.find_subject(argc > 2 ? argv[2] : family.default_subject());
    if (subject.role != parity::gen::SubjectRole::implementation) {
      std::cerr << subject.name << " is not one of parity's kernels: its failures are findings, not test failures\n";
      return 2;
    }
    if (!subject.unavailable.empty()) {
      std::cout << subject.name << " skipped: " << subject.unavailable << "\n";
      return 77;
    }
    for (const auto& property : family.properties()) {
      if (!property.needs_subject) continue;
      ::testing::RegisterTest(family.name().c_str(), property.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [&family, name = subject.name, p = property.name]() -> ::testing::Test* {
                                return new PropertyHolds(family, name, p);
                              });
    }
  } catch (const parity::InputError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  return RUN_ALL_TESTS();
}
