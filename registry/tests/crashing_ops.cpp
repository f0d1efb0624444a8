// crashing: PyTorch operators that compute RMSNorm correctly (one row at a time in float, as
// examples/torch_op/mylib.cpp) except at some shapes, where they fail the way real kernels do:
//   crashing::rms_norm_segv   writes through a null pointer when T >= 40 and D is odd (SIGSEGV)
//   crashing::rms_norm_abort  calls std::abort when T >= 24 and D >= 5 (SIGABRT)
//   crashing::rms_norm_hang   spins forever when D % 8 == 3 and T >= 2
//   crashing::rms_norm_alloc  allocates 64 GiB when T >= 32 (never touched: it fails only under a limit)
// The supervised worker test (supervised_worker_test.sh) checks that parity finds each, names its
// kind, shrinks it to exactly those thresholds and replays its reproducer to the same kind.
#include <ATen/ATen.h>
#include <torch/library.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

enum class Fault { segv, abort, hang, alloc };

char* volatile allocated = nullptr;

bool faults(Fault f, std::int64_t T, std::int64_t D) {
  switch (f) {
    case Fault::segv:
      return T >= 40 && D % 2 == 1;
    case Fault::abort:
      return T >= 24 && D >= 5;
    case Fault::hang:
      return D % 8 == 3 && T >= 2;
    case Fault::alloc:
      return T >= 32;
  }
  return false;
}

void fail(Fault f) {
  volatile std::uintptr_t address = 0;  // opaque to the compiler: a real store to address 0
  volatile bool spinning = true;
  switch (f) {
    case Fault::segv:
      *reinterpret_cast<volatile int*>(address) = 1;
      break;
    case Fault::abort:
      std::abort();
    case Fault::hang:
      while (spinning) {
      }
      break;
    case Fault::alloc:
      allocated = new char[std::size_t{64} << 30];  // kept where the compiler cannot elide it
      delete[] allocated;
  }
}

template <Fault kFault>
at::Tensor rms_norm(const at::Tensor& x, const at::Tensor& w, double eps) {
  TORCH_CHECK(x.dim() == 2 && w.dim() == 1 && x.size(1) == w.size(0), "crashing::rms_norm: x [T, D] and w [D]");
  const std::int64_t T = x.size(0), D = x.size(1);
  if (faults(kFault, T, D)) fail(kFault);
  const at::Tensor xf = x.to(at::kFloat).contiguous(), wf = w.to(at::kFloat).contiguous();
  at::Tensor y = at::empty_like(xf);
  const float* xp = xf.data_ptr<float>();
  const float* wp = wf.data_ptr<float>();
  float* yp = y.data_ptr<float>();
  for (std::int64_t t = 0; t < T; ++t) {
    float sum = 0.0f;
    for (std::int64_t i = 0; i < D; ++i) sum = sum + xp[t * D + i] * xp[t * D + i];
    const float inv = 1.0f / std::sqrt(sum / static_cast<float>(D) + static_cast<float>(eps));
    for (std::int64_t i = 0; i < D; ++i) yp[t * D + i] = (xp[t * D + i] * inv) * wp[i];
  }
  return y.to(x.scalar_type());
}

}  // namespace

TORCH_LIBRARY(crashing, m) {
  m.def("rms_norm_segv(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("rms_norm_abort(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("rms_norm_hang(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("rms_norm_alloc(Tensor x, Tensor w, float eps) -> Tensor");
}

TORCH_LIBRARY_IMPL(crashing, CPU, m) {
  m.impl("rms_norm_segv", &rms_norm<Fault::segv>);
  m.impl("rms_norm_abort", &rms_norm<Fault::abort>);
  m.impl("rms_norm_hang", &rms_norm<Fault::hang>);
  m.impl("rms_norm_alloc", &rms_norm<Fault::alloc>);
}
