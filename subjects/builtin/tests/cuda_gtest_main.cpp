// gtest's main for the test programs that need a CUDA device (parity_cuda_gtest_main): without
// one (cuda_unavailable_reason() non-empty) it prints why and exits 77, which parity_add_test
// reports as skipped (SKIP_RETURN_CODE); with one it runs the tests as gtest_main does.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include <parity/subjects/builtin/cuda_device.hpp>

int main(int argc, char** argv) {
  if (const std::string why = parity::subjects::builtin::cuda_unavailable_reason(); !why.empty()) {
    std::printf("%s skipped: %s\n", std::filesystem::path(argv[0]).filename().c_str(), why.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
