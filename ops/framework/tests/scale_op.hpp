#pragma once
// A toy op for the framework's tests: y[t, i] = x[t, i] * w[i], the inputs in one dtype group
// ("in") and the output in another ("out"), so that a case may compute from float32 inputs into
// a narrow output; D's smallest value is 2, to test an extent's min.
#include <parity/core/case.hpp>
#include <parity/ops/framework/op_reference.hpp>

namespace parity::ops::testing {

struct Scale {
  static OpDecl declaration() {
    return {
        .name = "test_scale",
        .description = "y = x * w",
        .extents = {{.name = "T", .max = 16, .thresholds = {8}}, {.name = "D", .max = 64, .min = 2, .limit = 256}},
        .inputs = {{.name = "x", .shape = {"T", "D"}, .dtype_group = "in"},
                   {.name = "w", .shape = {"D"}, .dtype_group = "in", .mean = 1.0, .stddev = 0.1}},
        .outputs = {{.name = "y", .shape = {"T", "D"}, .dtype_group = "out"}},
        .params = {},
        .dtypes = {DType::f32, DType::bf16, DType::f16},
        .row_extent = "T",
        .reduced_extents = {},
    };
  }
  template <class R>
  static void reference(Eval<R>& e) {
    const auto x = e.input("x");
    const auto w = e.input("w");
    auto y = e.output("y");
    for (std::int64_t t = 0; t < e.extent("T"); ++t)
      for (std::int64_t i = 0; i < e.extent("D"); ++i) y(t, i) = x(t, i) * w(i);
  }
};

// A Case of test_scale: T x D rows drawn from `seed`, inputs in dtype `in`, the output in `out`.
// (parity::Case by its full name: a unity build may have put a test's own Case in scope.)
parity::Case scale_case(std::int64_t T, std::int64_t D, DType in, DType out, std::uint64_t seed = 1);

}  // namespace parity::ops::testing
