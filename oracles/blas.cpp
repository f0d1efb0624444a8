#include <parity/oracles/blas.hpp>

#include <dlfcn.h>

#include <climits>
#include <cstdlib>

#include <parity/core/thread_count.hpp>
#include <parity/oracles/ascending_gemm.hpp>

namespace parity::oracles {
namespace {

// Debian's runtime package (libopenblas0-pthread) provides it by this soname; its -dev package
// is not needed.
constexpr const char* kSoname = "libopenblas.so.0";

// CBLAS's row-major and transpose codes (cblas.h); the ABI is C's and stable.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

using Dgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*,
                       int);

struct OpenBlas {
  Dgemm dgemm = nullptr;
  std::string core = "loops";
};

// Loads OpenBLAS, with OPENBLAS_CORETYPE set for the dlopen alone where `set_core` (its
// constructor reads it there) and the user has not set it; the environment is restored right
// after.
void* load_fresh(bool set_core) {
  const char* coretype = set_core && !std::getenv("OPENBLAS_CORETYPE") ? openblas_coretype(cpu_features()) : nullptr;
  if (coretype) ::setenv("OPENBLAS_CORETYPE", coretype, 1);
  void* h = ::dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  if (coretype) ::unsetenv("OPENBLAS_CORETYPE");
  return h;
}

// The library, opened once per process (the first call's static): `fresh` where parity opened
// it, with `set_core` for load_blas(), without for gemm's and blas_core()'s first use; the
// process's own where it had one (a LibTorch built on it), its core, pool and
// OPENBLAS_NUM_THREADS staying theirs.
struct Library {
  void* handle = nullptr;
  bool fresh = false;
};

const Library& library(bool set_core = false) {
  static const Library lib = [set_core] {
    if (void* h = ::dlopen(kSoname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) return Library{h, false};
    return Library{load_fresh(set_core), true};
  }();
  return lib;
}

// Its entry points, resolved at the first product (or blas_core()), which also sizes a fresh
// instance's pool: thread_count() may throw there, as any reference's first use of it does.
const OpenBlas& openblas() {
  static const OpenBlas lib = [] {
    OpenBlas l;
    const Library& h = library();
    if (!h.handle) return l;
    const auto dgemm = reinterpret_cast<Dgemm>(::dlsym(h.handle, "cblas_dgemm"));
    const auto set_threads = reinterpret_cast<void (*)(int)>(::dlsym(h.handle, "openblas_set_num_threads"));
    const auto corename = reinterpret_cast<char* (*)()>(::dlsym(h.handle, "openblas_get_corename"));
    if (!dgemm) return l;
    if (h.fresh && set_threads && !std::getenv("OPENBLAS_NUM_THREADS")) set_threads(thread_count());
    l.dgemm = dgemm;
    l.core = corename ? corename() : "OpenBLAS";
    return l;
  }();
  return lib;
}

bool fits_int(std::int64_t x) { return x >= 0 && x <= INT_MAX; }

}  // namespace

void gemm(std::int64_t m, std::int64_t n, std::int64_t k, GemmOperand<double> a, GemmOperand<double> b, double* c) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (std::int64_t i = 0; i < m * n; ++i) c[i] = 0;
    return;
  }
  const Dgemm f = openblas().dgemm;
  // CBLAS takes int extents: a product past them is parity's own (ascending sums, one order).
  if (!f || !fits_int(m) || !fits_int(n) || !fits_int(k) || !fits_int(a.ld) || !fits_int(b.ld))
    return ascending_gemm(m, n, k, a, b, c);
  f(kRowMajor, a.trans ? kTrans : kNoTrans, b.trans ? kTrans : kNoTrans, static_cast<int>(m), static_cast<int>(n),
    static_cast<int>(k), 1.0, a.p, static_cast<int>(a.ld), b.p, static_cast<int>(b.ld), 0.0, c, static_cast<int>(n));
}

void load_blas() { library(/*set_core=*/true); }

std::string blas_core() { return openblas().core; }

CpuFeatures cpu_features() {
  CpuFeatures f;
#if defined(__x86_64__) && defined(__GNUC__)
  f.avx2 = __builtin_cpu_supports("avx2");
  f.fma = __builtin_cpu_supports("fma");
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512cd = __builtin_cpu_supports("avx512cd");
  f.avx512bw = __builtin_cpu_supports("avx512bw");
  f.avx512dq = __builtin_cpu_supports("avx512dq");
  f.avx512vl = __builtin_cpu_supports("avx512vl");
#endif
  return f;
}

const char* openblas_coretype(const CpuFeatures& f) {
  if (f.avx512f && f.avx512cd && f.avx512bw && f.avx512dq && f.avx512vl) return "SkylakeX";
  if (f.avx2 && f.fma) return "Haswell";
  return nullptr;
}

}  // namespace parity::oracles
