// Operators beside examples/torch_op/mylib.cpp's, for torch_op_cli_test.sh: each either maps to
// rms_norm only through --torch-arg or a default, or is refused for a reason the test names.
// Each correct one calls mylib::rms_norm through the dispatcher. And two float32 linear operators
// for the model's projections: `linear` sums each output over k in ascending order, whatever the
// batch; `linear_by_rows` sums in descending order when its row count is even, as a kernel that
// plans by the row count might: a sample's tokens alone and in a batch of two are an odd and an
// even count, so the model's batch invariance must catch it. `rms_norm_by_rows` is mylib::rms_norm
// with y rounded through bf16 when its row count is even, the same defect in the rows that run
// RMSNorm (--kernel-op rms_norm).
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <cmath>
#include <cstdint>

namespace {

at::Tensor rms_norm(const at::Tensor& x, const at::Tensor& w, double eps) {
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow("mylib::rms_norm", "")
                             .typed<at::Tensor(const at::Tensor&, const at::Tensor&, double)>();
  return op.call(x, w, eps);
}

at::Tensor defaulted(const at::Tensor& x, const at::Tensor& w, double eps, std::int64_t groups) {
  TORCH_CHECK(groups == 1, "groups must be its default");
  return rms_norm(x, w, eps);
}
at::Tensor float_weight(const at::Tensor& x, double, double) { return x; }
at::Tensor no_weight(const at::Tensor& x, double) { return x; }
std::tuple<at::Tensor, at::Tensor> two(const at::Tensor& x, const at::Tensor& w, double eps) {
  return {rms_norm(x, w, eps), x};
}
at::Tensor always_f32(const at::Tensor& x, const at::Tensor& w, double eps) {
  return rms_norm(x, w, eps).to(at::kFloat);
}
at::Tensor rms_norm_by_rows(const at::Tensor& x, const at::Tensor& w, double eps) {
  const at::Tensor y = rms_norm(x, w, eps);
  return x.size(0) % 2 == 0 ? y.to(at::kBFloat16).to(y.scalar_type()) : y;
}

// y [T, N] = x [T, K] W [N, K]^T (+ b [N]), float32, one fma chain per element in k order (descending
// if `descending`), then the bias.
at::Tensor linear_in_order(const at::Tensor& x_in, const at::Tensor& W_in, const c10::optional<at::Tensor>& b_in,
                           bool descending) {
  TORCH_CHECK(x_in.scalar_type() == at::kFloat && W_in.scalar_type() == at::kFloat, "linear: float32 operands only");
  const at::Tensor x = x_in.contiguous(), W = W_in.contiguous();
  const at::Tensor b = b_in ? b_in->contiguous() : at::Tensor();
  const std::int64_t T = x.size(0), K = x.size(1), N = W.size(0);
  at::Tensor y = at::empty({T, N}, x.options());
  const float* xp = x.data_ptr<float>();
  const float* wp = W.data_ptr<float>();
  float* yp = y.data_ptr<float>();
  for (std::int64_t t = 0; t < T; ++t)
    for (std::int64_t n = 0; n < N; ++n) {
      float acc = 0.0f;
      for (std::int64_t i = 0; i < K; ++i) {
        const std::int64_t k = descending ? K - 1 - i : i;
        acc = std::fma(xp[t * K + k], wp[n * K + k], acc);
      }
      yp[t * N + n] = b.defined() ? acc + b.data_ptr<float>()[n] : acc;
    }
  return y;
}
at::Tensor linear(const at::Tensor& x, const at::Tensor& W, const c10::optional<at::Tensor>& b, std::int64_t) {
  return linear_in_order(x, W, b, false);
}
at::Tensor linear_by_rows(const at::Tensor& x, const at::Tensor& W, const c10::optional<at::Tensor>& b, std::int64_t) {
  return linear_in_order(x, W, b, x.size(0) % 2 == 0);
}

}  // namespace

TORCH_LIBRARY(parity_test, m) {
  m.def("renamed(Tensor input, Tensor weight, float epsilon) -> Tensor");
  m.def("defaulted(Tensor x, Tensor w, float eps, int groups=1) -> Tensor");
  m.def("extra(Tensor x, Tensor w, float eps, int groups) -> Tensor");
  m.def("float_weight(Tensor x, float w, float eps) -> Tensor");
  m.def("no_weight(Tensor x, float eps) -> Tensor");
  m.def("two(Tensor x, Tensor w, float eps) -> (Tensor, Tensor)");
  m.def("always_f32(Tensor x, Tensor w, float eps) -> Tensor");
  m.def("linear(Tensor x, Tensor W, Tensor? b, int bias) -> Tensor");
  m.def("linear_by_rows(Tensor x, Tensor W, Tensor? b, int bias) -> Tensor");
  m.def("rms_norm_by_rows(Tensor x, Tensor w, float eps) -> Tensor");
}

TORCH_LIBRARY_IMPL(parity_test, CPU, m) {
  m.impl("renamed", &rms_norm);
  m.impl("defaulted", &defaulted);
  m.impl("extra", &defaulted);
  m.impl("float_weight", &float_weight);
  m.impl("no_weight", &no_weight);
  m.impl("two", &two);
  m.impl("always_f32", &always_f32);
  m.impl("linear", &linear);
  m.impl("linear_by_rows", &linear_by_rows);
  m.impl("rms_norm_by_rows", &rms_norm_by_rows);
}
