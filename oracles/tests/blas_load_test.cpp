// The BLAS's load (oracles/blas.hpp): which load touches the environment. setenv is wrapped here
// (this program's definition takes the place of libc's for every caller in it) to record each
// OPENBLAS_CORETYPE set. Each load scenario needs a process whose BLAS is not loaded yet: ctest
// runs this program once per suite (CMakeLists.txt),
//   FirstUse   a product before any load_blas() sets no environment variable;
//   LoadBlas   load_blas() sets the CPU's core type for the load alone, and OpenBLAS runs it.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <parity/core/isa.hpp>
#include <parity/oracles/blas.hpp>

namespace {

std::vector<std::string>& coretypes_set() {
  static std::vector<std::string> set;
  return set;
}

}  // namespace

extern "C" int setenv(const char* name, const char* value, int overwrite) noexcept {
  using Setenv = int (*)(const char*, const char*, int);
  static const auto real = reinterpret_cast<Setenv>(::dlsym(RTLD_NEXT, "setenv"));
  if (std::string(name) == "OPENBLAS_CORETYPE") coretypes_set().emplace_back(value);
  return real(name, value, overwrite);
}

namespace parity::oracles {
namespace {

TEST(FirstUse, SetsNoEnvironmentVariable) {
  const double a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8};
  double c[4];
  gemm(2, 2, 2, {a, 2}, {b, 2}, c);
  EXPECT_EQ(c[0], 19);
  EXPECT_EQ(c[1], 22);
  EXPECT_EQ(c[2], 43);
  EXPECT_EQ(c[3], 50);
  EXPECT_TRUE(coretypes_set().empty()) << "set OPENBLAS_CORETYPE=" << coretypes_set().front();
  load_blas();  // loaded already: nothing more
  EXPECT_TRUE(coretypes_set().empty());
}

TEST(LoadBlas, SetsTheCpusCoreTypeForTheLoadAlone) {
  if (std::getenv("OPENBLAS_CORETYPE")) GTEST_SKIP() << "the user's OPENBLAS_CORETYPE is left as it is";
  load_blas();
  const Isa isa = best_isa();
  const char* want = isa == Isa::avx512 ? "SkylakeX" : isa == Isa::avx2 ? "Haswell" : nullptr;
  if (want) EXPECT_EQ(coretypes_set(), std::vector<std::string>{want});
  else EXPECT_TRUE(coretypes_set().empty());
  EXPECT_EQ(std::getenv("OPENBLAS_CORETYPE"), nullptr);
  const std::string core = blas_core();
  if (want && core != "loops") EXPECT_EQ(core, want) << "OpenBLAS runs other kernels than the ones asked";
}

}  // namespace
}  // namespace parity::oracles
