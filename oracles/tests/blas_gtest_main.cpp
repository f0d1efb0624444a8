// gtest's main for the test programs that link parity's BLAS (parity_blas_gtest_main): loads it
// with the CPU's core type (oracles/blas.hpp, load_blas) while this thread is the process's only
// one, then runs the tests as gtest_main does.
#include <gtest/gtest.h>

#include <parity/core/keep_freed_memory.hpp>
#include <parity/oracles/blas.hpp>

int main(int argc, char** argv) {
  parity::keep_freed_memory();  // before any thread (core/keep_freed_memory.hpp)
  parity::oracles::load_blas();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
