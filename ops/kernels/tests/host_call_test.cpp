// HostCall and HostTwin (ops/kernels/host_call.hpp) on a toy declaration: outputs allocated in
// their declared dims and the call's dtypes, +0 throughout; inputs as their floats; an absent
// optional input or a missing one named as OpCall names it; an input of another shape refused; the twin's outputs as
// rows() stores them.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/ops/kernels/host_call.hpp>

namespace parity::ops::kernels {
namespace {

struct Toy {
  static OpDecl declaration() {
    return {.name = "toy",
            .extents = {{.name = "T"}, {.name = "H"}, {.name = "D"}},
            .inputs = {{.name = "x", .shape = {"T", "H*D"}, .dtype_group = "act"},
                       {.name = "b", .shape = {"D"}, .dtype_group = "act", .present_if = "bias"}},
            .outputs = {{.name = "y", .shape = {"T", "H*D"}, .dtype_group = "act", .dims = {"T", "H", "D"}},
                        {.name = "s", .shape = {"T"}, .dtype_group = "act"}},
            .params = {{.name = "bias", .values = {0.0, 1.0}}},
            .row_extent = "T"};
  }
};

OpCall toy_call(std::int64_t T, DType dtype) {
  Tensor x = Tensor::zeros(dtype, {T, 6});
  for (std::int64_t i = 0; i < x.numel(); ++i) x.set_value(i, 0.5 * static_cast<double>(i));
  return {.extents = {{"T", T}, {"H", 2}, {"D", 3}},
          .inputs = {{"x", x}},
          .params = {{"bias", 0.0}},
          .output_dtypes = {{"y", dtype}, {"s", dtype}}};
}

TEST(HostCall, AllocatesTheDeclaredOutputsAndReadsTheInputsAsFloats) {
  const OpCall call = toy_call(2, DType::bf16);
  HostCall c(Toy::declaration(), call);
  EXPECT_EQ(c.out("y").shape(), (std::vector<std::int64_t>{2, 2, 3}));
  EXPECT_EQ(c.out("y").dtype(), DType::bf16);
  EXPECT_EQ(c.out("s").shape(), (std::vector<std::int64_t>{2}));
  for (const double v : c.out("y").values()) EXPECT_EQ(v, 0.0);
  ASSERT_EQ(c.in("x").size(), 12u);
  EXPECT_EQ(c.in("x")[5], 2.5f);
  EXPECT_EQ(c.extent("D"), 3);
  EXPECT_FALSE(c.has("b"));
}

TEST(HostCall, NamesWhatTheCallLacks) {
  const OpCall call = toy_call(1, DType::f32);
  const HostCall c(Toy::declaration(), call);
  ASSERT_TRUE(throws_input_error([&] { c.in("b"); }, "'b'")) << "an absent input was read";
  EXPECT_THROW(c.extent("S"), InputError);
  OpCall no_dtype = call;
  no_dtype.output_dtypes.erase("s");
  EXPECT_THROW(HostCall(Toy::declaration(), no_dtype), InputError);
}

TEST(HostCall, RefusesAnInputOfAnotherShapeThanItsDeclaredOne) {
  OpCall call = toy_call(2, DType::f32);
  call.extents["D"] = 4;  // x [2, 6] where the declaration gives [2, 8]
  ASSERT_TRUE(throws_input_error([&] { HostCall(Toy::declaration(), call); }, "input x"))
      << "an input of another shape was read";
}

TEST(HostCall, CountsNoOutputElementForAnEmptyBatch) {
  EXPECT_EQ(output_elements(declared_outputs(Toy::declaration(), toy_call(0, DType::f32))), 0);
  EXPECT_EQ(output_elements(declared_outputs(Toy::declaration(), toy_call(2, DType::f32))), 14);
}

// Each row's sum of x into s, and y = x rounded to y's dtype.
class ToyHost : public HostTwin<Toy> {
  void rows(HostCall& c) const override {
    const std::int64_t T = c.extent("T"), W = c.extent("H") * c.extent("D");
    const float* x = c.in("x").data();
    Tensor &y = c.out("y"), &s = c.out("s");
    for (std::int64_t t = 0; t < T; ++t) {
      float sum = 0.0f;
      for (std::int64_t i = 0; i < W; ++i) {
        store(y, t * W + i, x[t * W + i]);
        sum = sum + x[t * W + i];
      }
      store(s, t, sum);
    }
  }
};

TEST(HostTwin, ReturnsTheOutputsItsRowsStore) {
  ToyHost twin;
  const OpOutputs out = twin.run(toy_call(2, DType::f32));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out.at("y").shape(), (std::vector<std::int64_t>{2, 2, 3}));
  EXPECT_EQ(out.at("y").values()[7], 3.5);
  EXPECT_EQ(out.at("s").values()[1], 0.5 * (6 + 7 + 8 + 9 + 10 + 11));
}

}  // namespace
}  // namespace parity::ops::kernels
