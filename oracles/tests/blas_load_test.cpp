// The BLAS's load (oracles/blas.hpp): the core type asked of OpenBLAS per CPU, and which load
// touches the environment. setenv is wrapped here (this program's definition takes the place of
// libc's for every caller in it) to record each OPENBLAS_CORETYPE set. Each load scenario needs a
// process whose BLAS is not loaded yet: ctest runs this program once per suite (CMakeLists.txt),
//   FirstUse   a product before any load_blas() sets no environment variable;
//   LoadBlas   load_blas() sets the CPU's core type for the load alone, and OpenBLAS runs it.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

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

TEST(OpenblasCoretype, SkylakeXOnlyWithEveryAvx512SetItsKernelsUse) {
  const CpuFeatures all{.avx2 = true,
                        .fma = true,
                        .avx512f = true,
                        .avx512cd = true,
                        .avx512bw = true,
                        .avx512dq = true,
                        .avx512vl = true};
  EXPECT_STREQ(openblas_coretype(all), "SkylakeX");
  for (bool CpuFeatures::*missing : {&CpuFeatures::avx512f, &CpuFeatures::avx512cd, &CpuFeatures::avx512bw,
                                     &CpuFeatures::avx512dq, &CpuFeatures::avx512vl}) {
    CpuFeatures f = all;
    f.*missing = false;
    EXPECT_STREQ(openblas_coretype(f), "Haswell");
  }
  // AVX512F and CD alone (Knights Landing's common subset, no BW, DQ or VL): Haswell.
  EXPECT_STREQ(openblas_coretype({.avx2 = true, .fma = true, .avx512f = true, .avx512cd = true}), "Haswell");
  EXPECT_STREQ(openblas_coretype({.avx2 = true, .fma = true}), "Haswell");
  EXPECT_EQ(openblas_coretype({.avx2 = true}), nullptr);
  EXPECT_EQ(openblas_coretype({.fma = true}), nullptr);
  EXPECT_EQ(openblas_coretype({}), nullptr);
}

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
  const char* want = openblas_coretype(cpu_features());
  if (want) EXPECT_EQ(coretypes_set(), std::vector<std::string>{want});
  else EXPECT_TRUE(coretypes_set().empty());
  EXPECT_EQ(std::getenv("OPENBLAS_CORETYPE"), nullptr);
  const std::string core = blas_core();
  if (want && core != "loops") {
    EXPECT_EQ(core, want) << "OpenBLAS runs other kernels than the ones asked";
  }
}

}  // namespace
}  // namespace parity::oracles
