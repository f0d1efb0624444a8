#include <parity/oracles/blas.hpp>

#include <dlfcn.h>

#include <climits>
#include <cstdlib>
#include <mutex>
#include <optional>

#include <parity/core/isa.hpp>
#include <parity/core/thread_count.hpp>

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

// Loads OpenBLAS with OPENBLAS_CORETYPE set for the dlopen alone (its constructor reads it
// there), the environment restored right after; the user's OPENBLAS_CORETYPE, where set, is left
// as it is. Called once (openblas()'s static), under a mutex against any other caller of this file.
void* load_fresh() {
  static std::mutex env_mutex;
  const std::lock_guard lock(env_mutex);
  const char* coretype = nullptr;
  if (!std::getenv("OPENBLAS_CORETYPE")) {
    const Isa isa = best_isa();
    if (isa == Isa::avx512) coretype = "SkylakeX";
    else if (isa == Isa::avx2) coretype = "Haswell";
  }
  if (coretype) ::setenv("OPENBLAS_CORETYPE", coretype, 1);
  void* h = ::dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  if (coretype) ::unsetenv("OPENBLAS_CORETYPE");
  return h;
}

const OpenBlas& openblas() {
  static const OpenBlas lib = [] {
    OpenBlas l;
    // Already in the process (a LibTorch built on it): used as it is - its core, its pool and the
    // user's OPENBLAS_NUM_THREADS stay theirs.
    void* h = ::dlopen(kSoname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    const bool fresh = !h;
    if (fresh) h = load_fresh();
    if (!h) return l;
    const auto dgemm = reinterpret_cast<Dgemm>(::dlsym(h, "cblas_dgemm"));
    const auto set_threads = reinterpret_cast<void (*)(int)>(::dlsym(h, "openblas_set_num_threads"));
    const auto corename = reinterpret_cast<char* (*)()>(::dlsym(h, "openblas_get_corename"));
    if (!dgemm) return l;
    if (fresh && set_threads && !std::getenv("OPENBLAS_NUM_THREADS")) set_threads(thread_count());
    l.dgemm = dgemm;
    l.core = corename ? corename() : "OpenBLAS";
    return l;
  }();
  return lib;
}

double at(const GemmOperand<double>& x, std::int64_t i, std::int64_t j) {
  return x.trans ? x.p[j * x.ld + i] : x.p[i * x.ld + j];
}

void loops(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a, const GemmOperand<double>& b,
           double* c) {
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::int64_t l = 0; l < k; ++l) s += at(a, i, l) * at(b, l, j);
      c[i * n + j] = s;
    }
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
  // CBLAS takes int extents: a product past them is the loops'.
  if (!f || !fits_int(m) || !fits_int(n) || !fits_int(k) || !fits_int(a.ld) || !fits_int(b.ld))
    return loops(m, n, k, a, b, c);
  f(kRowMajor, a.trans ? kTrans : kNoTrans, b.trans ? kTrans : kNoTrans, static_cast<int>(m), static_cast<int>(n),
    static_cast<int>(k), 1.0, a.p, static_cast<int>(a.ld), b.p, static_cast<int>(b.ld), 0.0, c, static_cast<int>(n));
}

std::string blas_core() { return openblas().core; }

}  // namespace parity::oracles
