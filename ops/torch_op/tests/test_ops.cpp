// Operators beside examples/torch_op/mylib.cpp's, for torch_op_cli_test.sh: each either maps to
// rms_norm only through --torch-arg or a default, or is refused for a reason the test names.
// Each correct one calls mylib::rms_norm through the dispatcher.
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

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
at::Tensor always_f32(const at::Tensor& x, const at::Tensor& w, double eps) { return rms_norm(x, w, eps).to(at::kFloat); }

}  // namespace

TORCH_LIBRARY(parity_test, m) {
  m.def("renamed(Tensor input, Tensor weight, float epsilon) -> Tensor");
  m.def("defaulted(Tensor x, Tensor w, float eps, int groups=1) -> Tensor");
  m.def("extra(Tensor x, Tensor w, float eps, int groups) -> Tensor");
  m.def("float_weight(Tensor x, float w, float eps) -> Tensor");
  m.def("no_weight(Tensor x, float eps) -> Tensor");
  m.def("two(Tensor x, Tensor w, float eps) -> (Tensor, Tensor)");
  m.def("always_f32(Tensor x, Tensor w, float eps) -> Tensor");
}

TORCH_LIBRARY_IMPL(parity_test, CPU, m) {
  m.impl("renamed", &rms_norm);
  m.impl("defaulted", &defaulted);
  m.impl("extra", &defaulted);
  m.impl("float_weight", &float_weight);
  m.impl("no_weight", &no_weight);
  m.impl("two", &two);
  m.impl("always_f32", &always_f32);
}
