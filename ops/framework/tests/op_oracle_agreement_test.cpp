// oracle_agreement (op_checks.hpp) checks both values parity's references report against MPFR:
// the double oracle's and the Bounded reference's own, on which forward_accuracy centres its
// bounds. The toy op y = x * w with its Bounded value moved off, its double one left right.
#include <gtest/gtest.h>

#include <functional>

#include <string>
#include <type_traits>

#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/tests/scale_op.hpp>

namespace parity::ops {
namespace {

using testing::Scale;
using testing::scale_case;

// y = x * w, its Bounded value times 1 + 2^-20: far beyond the float64 bound of a product, its
// error bound the product's as it is.
struct ScaleBoundedValueOff {
  static OpDecl declaration() {
    OpDecl d = Scale::declaration();
    d.name = "test_scale_bounded_value_off";
    return d;
  }
  template <class R>
  static void reference(Eval<R>& e) {
    Scale::reference(e);
    if constexpr (std::is_same_v<R, Bounded>)
      for (Bounded& y : e.outputs().at("y")) y = Bounded(y.value() * (1 + 0x1p-20), y.err(), y.arithmetic());
  }
};

TEST(OracleAgreement, HoldsWhereBothValuesAreWithinTheBound) {
  const Verdict v = oracle_agreement(define_op<Scale>(), scale_case(4, 8, DType::f32, DType::f32));
  EXPECT_TRUE(v.holds()) << v.detail;
}

TEST(OracleAgreement, ChecksTheBoundedReferencesValueToo) {
  parity::Case c = scale_case(4, 8, DType::f32, DType::f32);  // (full name: as scale_op.hpp says)
  c.family = ScaleBoundedValueOff::declaration().name;
  const Verdict v = oracle_agreement(define_op<ScaleBoundedValueOff>(), c);
  ASSERT_TRUE(v.fails()) << v.detail;
  EXPECT_NE(v.detail.find("parity's Bounded reference's value is outside its own bound of the MPFR one at y[0]"),
            std::string::npos)
      << v.detail;
}

// Scale's definition with its filter's value (or its lower bound) moved off by `change`.
OpDef filter_changed(std::function<void(FilteredOutputs&)> change) {
  OpDef def = define_op<Scale>();
  def.filtered = [original = def.filtered, change](const OpValues& v, const Arithmetic& a) {
    FilteredOutputs f = original(v, a);
    change(f);
    return f;
  };
  return def;
}

TEST(OracleAgreement, ChecksTheFiltersValueAndLowerBoundToo) {
  const parity::Case c = scale_case(4, 8, DType::f32, DType::f32);
  const Verdict value_off =
      oracle_agreement(filter_changed([](FilteredOutputs& f) {
                         Filtered& y = f.at("y")[0];
                         y = Filtered(y.value() * (1 + 0x1p-20), y.dev(), y.lo(),
                                      nullptr);  // far beyond its d
                       }),
                       c);
  ASSERT_TRUE(value_off.fails()) << value_off.detail;
  EXPECT_NE(value_off.detail.find("parity's filter is outside its own bound of the MPFR value at y[0]"),
            std::string::npos)
      << value_off.detail;
  const Verdict lo_off = oracle_agreement(filter_changed([](FilteredOutputs& f) {
                                            Filtered& y = f.at("y")[1];
                                            y = Filtered(y.value(), y.dev(), 1.0, nullptr);
                                          }),
                                          c);
  ASSERT_TRUE(lo_off.fails()) << lo_off.detail;
  EXPECT_NE(lo_off.detail.find("parity's filter has a lower bound above Bounded's bound at y[1]"), std::string::npos)
      << lo_off.detail;
}

}  // namespace
}  // namespace parity::ops
