#include <parity/oracles/blas.hpp>

#include <dlfcn.h>

#include <cstdlib>

#include <parity/core/isa.hpp>
#include <parity/core/thread_count.hpp>

#ifndef PARITY_OPENBLAS_LIBRARY
#define PARITY_OPENBLAS_LIBRARY "libopenblas.so.0"
#endif

namespace parity::oracles {
namespace {

// CBLAS's row-major and transpose codes (cblas.h); the ABI is C's and stable.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

using Dgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*,
                       int);
using Sgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);

struct OpenBlas {
  Dgemm dgemm = nullptr;
  Sgemm sgemm = nullptr;
  std::string core = "loops";
};

const OpenBlas& openblas() {
  static const OpenBlas lib = [] {
    OpenBlas l;
    if (!std::getenv("OPENBLAS_CORETYPE")) {
      const Isa isa = best_isa();
      if (isa == Isa::avx512) ::setenv("OPENBLAS_CORETYPE", "SkylakeX", 0);
      else if (isa == Isa::avx2) ::setenv("OPENBLAS_CORETYPE", "Haswell", 0);
    }
    void* h = ::dlopen(PARITY_OPENBLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!h) h = ::dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h) return l;
    const auto dgemm = reinterpret_cast<Dgemm>(::dlsym(h, "cblas_dgemm"));
    const auto sgemm = reinterpret_cast<Sgemm>(::dlsym(h, "cblas_sgemm"));
    const auto set_threads = reinterpret_cast<void (*)(int)>(::dlsym(h, "openblas_set_num_threads"));
    const auto corename = reinterpret_cast<char* (*)()>(::dlsym(h, "openblas_get_corename"));
    if (!dgemm || !sgemm) return l;
    if (set_threads) set_threads(thread_count());
    l.dgemm = dgemm;
    l.sgemm = sgemm;
    l.core = corename ? corename() : "OpenBLAS";
    return l;
  }();
  return lib;
}

template <class T>
T at(const GemmOperand<T>& x, std::int64_t i, std::int64_t j) {
  return x.trans ? x.p[j * x.ld + i] : x.p[i * x.ld + j];
}

template <class T>
void loops(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<T>& a, const GemmOperand<T>& b, T* c) {
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      T s = 0;
      for (std::int64_t l = 0; l < k; ++l) s += at(a, i, l) * at(b, l, j);
      c[i * n + j] = s;
    }
}

template <class T, class F>
void run(F f, std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<T>& a, const GemmOperand<T>& b, T* c) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (std::int64_t i = 0; i < m * n; ++i) c[i] = 0;
    return;
  }
  if (!f) return loops(m, n, k, a, b, c);
  f(kRowMajor, a.trans ? kTrans : kNoTrans, b.trans ? kTrans : kNoTrans, static_cast<int>(m), static_cast<int>(n),
    static_cast<int>(k), T(1), a.p, static_cast<int>(a.ld), b.p, static_cast<int>(b.ld), T(0), c, static_cast<int>(n));
}

}  // namespace

void gemm(std::int64_t m, std::int64_t n, std::int64_t k, GemmOperand<double> a, GemmOperand<double> b, double* c) {
  run(openblas().dgemm, m, n, k, a, b, c);
}
void gemm(std::int64_t m, std::int64_t n, std::int64_t k, GemmOperand<float> a, GemmOperand<float> b, float* c) {
  run(openblas().sgemm, m, n, k, a, b, c);
}

std::string blas_core() { return openblas().core; }

}  // namespace parity::oracles
