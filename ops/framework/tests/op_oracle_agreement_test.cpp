// oracle_agreement (op_checks.hpp) checks both values parity's references report against MPFR:
// the double oracle's and the Bounded reference's own, on which forward_accuracy centres its
// bounds. The toy op y = x * w with its Bounded value moved off, its double one left right.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace parity::ops
