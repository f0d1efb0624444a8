// A new op, declared for parity in one file: scaled_add, y = x + alpha * r (a residual branch
// scaled by alpha), with my host kernel of it and a deliberately wrong copy. parity derives the
// generators, properties, derived bounds, shrinking and reproducers from the declaration.
#include <parity/ops/register_op.hpp>

using namespace parity;
using namespace parity::ops;

namespace {

struct ScaledAdd {
  static OpDecl declaration() {
    return {
        .name = "scaled_add",
        .description = "scaled add: y = x + alpha * r over rows of T",
        .extents = {{.name = "T", .max = 4096, .thresholds = {32, 64, 128}}, {.name = "D", .max = 4096}},
        .inputs = {{.name = "x", .shape = {"T", "D"}, .dtype_group = "act"},
                   {.name = "r", .shape = {"T", "D"}, .dtype_group = "act", .scales = {1.0, 1e-3, 30.0}}},
        .outputs = {{.name = "y", .shape = {"T", "D"}, .dtype_group = "act"}},
        .params = {{.name = "alpha", .values = {1.0, 0.5, -2.0, 1e-3}, .min = -4.0, .max = 4.0}},
        .row_extent = "T",
    };
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const auto x = e.input("x");
    const auto r = e.input("r");
    auto y = e.output("y");
    const R alpha = e.param("alpha");
    for (std::int64_t t = 0; t < e.extent("T"); ++t)
      for (std::int64_t i = 0; i < e.extent("D"); ++i) y(t, i) = x(t, i) + alpha * r(t, i);
  }
};

// My kernel: float arithmetic, y rounded once to the inputs' dtype. `kBroken` scales x instead of r.
template <bool kBroken>
class MyScaledAdd : public OpSubject {
 public:
  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const Tensor& r = call.input("r");
    const auto alpha = static_cast<float>(call.param("alpha"));
    Tensor y = Tensor::zeros(call.output_dtype("y"), {x.dim(0), x.dim(1)});
    for (std::int64_t i = 0; i < x.numel(); ++i) {
      const auto xi = static_cast<float>(x.value_at(i)), ri = static_cast<float>(r.value_at(i));
      y.set_value(i, kBroken ? alpha * xi + ri : xi + alpha * ri);
    }
    return {{"y", std::move(y)}};
  }
};

}  // namespace

PARITY_REGISTER_OP(scaled_add, ScaledAdd, "my-scaled-add");
PARITY_REGISTER_OP_SUBJECT(
    my_scaled_add, "scaled_add",
    OpSubjectInfo{.name = "my-scaled-add", .backend = "host", .description = "my scaled add, host", .make = [] {
                    return std::unique_ptr<OpSubject>(std::make_unique<MyScaledAdd<false>>());
                  }});
PARITY_REGISTER_OP_SUBJECT(my_scaled_add_broken, "scaled_add",
                           OpSubjectInfo{.name = "my-scaled-add-broken",
                                         .backend = "host",
                                         .description = "my scaled add with x scaled (must be caught)",
                                         .make = [] {
                                           return std::unique_ptr<OpSubject>(std::make_unique<MyScaledAdd<true>>());
                                         }});
