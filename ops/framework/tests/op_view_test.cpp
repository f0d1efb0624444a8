// Operands of higher rank (TensorDecl::dims, op_view.hpp) on a declaration of their own: x is
// held as the matrix [T, A*B*C] and seen by a subject as [T, A, B, C], its columns in the order
// (A, B, C) or (C, A, B) by the parameter `order`. Under every matrix layout (row-major,
// transposed, padded, offset) each element of the view is the matrix element that the order's
// column formula, written out here, names; a subject's tensor of the dims comes back as that
// matrix; an output of other dims, the matrix's own among them, is a fault; and a declaration whose dims or
// orders do not split its shape is refused.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

#include <parity/core/compare.hpp>
#include <parity/core/layout.hpp>
#include <parity/core/normal_tensor.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_decl.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_view.hpp>

namespace parity::ops {
namespace {

OpDecl ordered_decl() {
  const TensorDecl x{.name = "x",
                     .shape = {"T", "A*B*C"},
                     .dims = {"T", "A", "B", "C"},
                     .order_param = "order",
                     .orders = {{"A", "B", "C"}, {"C", "A", "B"}}};
  TensorDecl y = x;
  y.name = "y";
  return {.name = "ordered",
          .extents = {{.name = "T"}, {.name = "A"}, {.name = "B"}, {.name = "C"}},
          .inputs = {x},
          .outputs = {y},
          .params = {{.name = "order", .values = {0, 1}, .min = 0, .max = 1}},
          .row_extent = "T"};
}

constexpr std::int64_t T = 2, A = 3, B = 4, C = 5;

OpCall call_in_order(int order) {
  OpCall call;
  call.extents = {{"T", T}, {"A", A}, {"B", B}, {"C", C}};
  call.params = {{"order", order}};
  call.output_dtypes = {{"y", DType::f32}};
  return call;
}

// The matrix column of (a, b, c) under order 0, (A, B, C), or 1, (C, A, B).
std::int64_t column(int order, std::int64_t a, std::int64_t b, std::int64_t c) {
  return order == 0 ? (a * B + b) * C + c : (c * A + a) * B + b;
}

TEST(OpView, EachElementOfTheViewIsTheMatrixElementItsOrderNames) {
  const OpDecl d = ordered_decl();
  validate(d);
  const Tensor logical = normal_tensor_nd(DType::f32, {T, A * B * C}, 3, 0, 1.0);
  for (const int order : {0, 1})
    for (const Layout& l : {Layout{}, Layout{.transposed = true}, Layout{.ld_pad = 3, .offset = 7},
                            Layout{.transposed = true, .ld_pad = 2, .offset = 1}}) {
      const OpCall call = call_in_order(order);
      const Tensor matrix = l.place(logical);
      const Tensor view = dims_view(d.inputs[0], matrix, call);
      ASSERT_EQ(view.shape(), (std::vector<std::int64_t>{T, A, B, C}));
      std::int64_t i = 0;  // the view's row-major index
      for (std::int64_t t = 0; t < T; ++t)
        for (std::int64_t a = 0; a < A; ++a)
          for (std::int64_t b = 0; b < B; ++b)
            for (std::int64_t c = 0; c < C; ++c, ++i)
              ASSERT_EQ(view.bits_at(i), logical.bits_at(t * A * B * C + column(order, a, b, c)))
                  << "order " << order << " layout " << l.name() << " at " << t << "," << a << "," << b << "," << c;
      // Where each matrix element is in the dims, as a message names it.
      for (std::int64_t m = 0; m < logical.numel(); ++m)
        ASSERT_EQ(view.bits_at(dims_index(d.inputs[0], m, call)), logical.bits_at(m)) << "order " << order << " " << m;
      // The view back as the matrix: the logical matrix, contiguous.
      const Tensor back = matrix_of(d.outputs[0], view, call);
      EXPECT_TRUE(back.is_contiguous());
      EXPECT_TRUE(compare_bitwise(back, logical).equal()) << "order " << order << " layout " << l.name();
    }
}

// A subject that returns its input as y, in dims or, with `flat`, as the matrix it should not be.
class Echo : public OpSubject {
 public:
  explicit Echo(bool flat) : flat_(flat) {}
  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    if (!flat_) return {{"y", x}};
    return {{"y", Tensor::zeros(DType::f32, {x.dim(0), x.numel() / x.dim(0)})}};
  }

 private:
  bool flat_;
};

TEST(OpView, ASubjectSeesDimsAndItsOutputsComeBackAsMatrices) {
  const OpDecl d = ordered_decl();
  for (const int order : {0, 1}) {
    OpCall call = call_in_order(order);
    const Tensor logical = normal_tensor_nd(DType::f32, {T, A * B * C}, 4, 0, 1.0);
    call.inputs = {{"x", Layout{.transposed = true, .ld_pad = 1}.place(logical)}};
    EXPECT_EQ(subject_call(d, call).input("x").shape(), (std::vector<std::int64_t>{T, A, B, C}));
    Echo echo(false);
    const OpOutputs out = run_on_matrices(d, echo, call);
    EXPECT_TRUE(compare_bitwise(out.at("y"), logical).equal()) << "order " << order;
    Echo flat(true);  // of the matrix's shape, not the dims
    EXPECT_THROW(run_on_matrices(d, flat, call), std::invalid_argument);
  }
}

TEST(OpView, AnOutputOfOtherDimsIsAFaultNamingBoth) {
  const OpDecl d = ordered_decl();
  Case c;
  c.family = "ordered";
  c.seed = 1;
  c.dims = {{"T", T}, {"A", A}, {"B", B}, {"C", C}};
  c.params = {{"order", 1}, {"dtype.x", 32}, {"dtype.y", 32}};
  const OpDef def{.decl = d};
  Echo flat(true);
  const Verdict v = repeatable(def, c, flat);
  EXPECT_TRUE(v.fails());
  EXPECT_NE(v.detail.find("output y is [2, 60] where ordered declares [2, 3, 4, 5]"), std::string::npos) << v.detail;
  Echo echo(false);
  EXPECT_TRUE(repeatable(def, c, echo).holds());
}

TEST(OpView, DimsThatDoNotSplitTheShapeAreRefused) {
  const auto refused = [](const std::function<void(TensorDecl&)>& change, const std::string& why) {
    OpDecl d = ordered_decl();
    change(d.inputs[0]);
    try {
      validate(d);
      ADD_FAILURE() << "accepted: " << why;
    } catch (const std::logic_error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused([](TensorDecl& t) { t.dims = {"T", "A", "B"}; }, "the product of dims after the first");
  refused([](TensorDecl& t) { t.dims = {"A", "T", "B", "C"}; }, "dims must start with shape's first");
  refused([](TensorDecl& t) { t.orders[1] = {"C", "A", "A"}; }, "not a permutation");
  refused([](TensorDecl& t) { t.orders.pop_back(); }, "no index into orders");
  refused(
      [](TensorDecl& t) {
        t.shape = {"T", "A*A"};
        t.dims = {"T", "A", "A"};
        t.orders = {{"A", "A"}, {"A", "A"}};
      },
      "repeat a name");
  refused([](TensorDecl& t) { t.order_param = "none"; }, "order_param names no parameter");
  refused([](TensorDecl& t) { t.dims.clear(); }, "orders without dims");
  refused([](TensorDecl& t) { t.dims = {"T", "Q", "B", "C"}; }, "unknown extent 'Q'");
}

// A dim may be an expression (sdpa's query heads "Hkv*G"): x as [T, A*B, C], its columns in the
// order (A*B, C) or (C, A*B), each order naming the dim by its expression.
TEST(OpView, ADimThatIsAProductIsOneDimOfItsOrders) {
  OpDecl d = ordered_decl();
  d.inputs[0].dims = {"T", "A*B", "C"};
  d.inputs[0].orders = {{"A*B", "C"}, {"C", "A*B"}};
  validate(d);
  const Tensor logical = normal_tensor_nd(DType::f32, {T, A * B * C}, 5, 0, 1.0);
  for (const int order : {0, 1}) {
    const Tensor view = dims_view(d.inputs[0], Layout{.ld_pad = 2, .offset = 3}.place(logical), call_in_order(order));
    ASSERT_EQ(view.shape(), (std::vector<std::int64_t>{T, A * B, C}));
    std::int64_t i = 0;
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t ab = 0; ab < A * B; ++ab)
        for (std::int64_t c = 0; c < C; ++c, ++i)
          ASSERT_EQ(view.bits_at(i), logical.bits_at(t * A * B * C + (order == 0 ? ab * C + c : c * A * B + ab)))
              << "order " << order << " at " << t << "," << ab << "," << c;
  }
  d.inputs[0].orders[1] = {"C", "B*A"};  // the same product, not the dim's expression
  EXPECT_THROW(validate(d), std::logic_error);
}

}  // namespace
}  // namespace parity::ops
