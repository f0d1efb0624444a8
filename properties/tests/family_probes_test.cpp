// Every mismatch probe of one family must be detected by some property of that family, on a
// case that parity's own kernel passes, within a bounded number of generated cases. A probe
// that nothing detects is a failure of parity itself.
// usage: family_probes_test FAMILY
#include <gtest/gtest.h>

#include <iostream>

#include <parity/core/error.hpp>
#include <parity/properties/gen/family.hpp>

namespace {

using parity::gen::Family;

constexpr int kCasesPerProperty = 200;

class ProbeDetected : public ::testing::Test {
 public:
  ProbeDetected(const Family& family, std::string probe) : family_(family), probe_(std::move(probe)) {}

  void TestBody() override {
    parity::gen::RunConfig config;
    config.cases = kCasesPerProperty;
    const auto detection = parity::gen::detect_probe(family_, probe_, config);
    if (detection) {
      std::cout << "detected by " << detection->property << ":\n" << detection->result.message;
      EXPECT_TRUE(detection->result.reproducer.has_value()) << "no reproducer was written";
    }
    EXPECT_TRUE(detection.has_value()) << "probe " << probe_ << " was detected by no " << family_.name()
                                       << " property in " << kCasesPerProperty << " cases each";
  }

 private:
  const Family& family_;
  std::string probe_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::cerr << "usage: family_probes_test FAMILY\n";
    return 2;
  }
  try {
    const Family& family = parity::gen::find_family(argv[1]);
    for (const auto& subject : family.subjects()) {
      if (subject.role != parity::gen::SubjectRole::probe) continue;
      std::string test_name = subject.name;
      for (char& ch : test_name)
        if (ch == '-') ch = '_';
      ::testing::RegisterTest(family.name().c_str(), test_name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [&family, name = subject.name]() -> ::testing::Test* {
                                return new ProbeDetected(family, name);
                              });
    }
  } catch (const parity::InputError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  return RUN_ALL_TESTS();
}
