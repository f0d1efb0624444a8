// gtest's main for the test programs that need a CUDA device (parity_cuda_gtest_main): where
// cuda_unavailable_reason() is non-empty (no device, or one that cannot load this build's
// kernels) it prints why and exits 77, which parity_add_test reports as skipped
// (SKIP_RETURN_CODE; on a GPU machine ci/device counts a skipped gpu test as a failure);
// otherwise it runs the tests as gtest_main does.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include <parity/subjects/builtin/cuda_device.hpp>

int main(int argc, char** argv) {
  if (const std::string why = parity::subjects::builtin::cuda_unavailable_reason(); !why.empty()) {
    std::printf("%s skipped: %s\n", argc > 0 ? std::filesystem::path(argv[0]).filename().c_str() : "test", why.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
