#pragma once
// define_op<Op>(): an op's declaration with its reference instantiated in double, MPFR, Bounded
// and Filtered (op_reference.hpp). Include it in the one .cpp that defines the op's family: the
// MPFR instantiation is compiled there.
#include <parity/ops/framework/op_reference.hpp>
#include <parity/oracles/multiprecision.hpp>

namespace parity::ops {

template <class Op>
OpDef define_op() {
  static const Arithmetic float64 = Arithmetic::float64();  // the oracles' (Eval keeps a reference)
  OpDef def;
  def.decl = Op::declaration();
  validate(def.decl);
  def.oracle = [](const OpValues& v) {
    Eval<double> e(v, float64);
    Op::reference(e);
    return e.outputs();
  };
  def.multiprecision = [](const OpValues& v) {
    Eval<oracles::mp_real> e(v, float64);
    Op::reference(e);
    OutputValues out;
    for (const auto& [name, values] : e.outputs()) {
      auto& to = out[name];  // looked up once per output, not per element
      for (const auto& x : values) to.push_back(static_cast<double>(x));
    }
    return out;
  };
  def.bounded = [](const OpValues& v, const Arithmetic& arithmetic) {
    Eval<Bounded> e(v, arithmetic);
    Op::reference(e);
    BoundedOutputs out;
    for (const auto& [name, values] : e.outputs()) {
      auto &value = out.value[name], &err = out.err[name];  // looked up once per output, not per element
      auto& may_overflow = out.may_overflow[name];
      for (const auto& x : values) {
        value.push_back(x.value());
        err.push_back(x.err());
        may_overflow.push_back(x.may_overflow() ? 1 : 0);
      }
    }
    return out;
  };
  def.filtered = [](const OpValues& v, const Arithmetic& arithmetic) {
    Eval<Filtered> e(v, arithmetic);
    Op::reference(e);
    return FilteredOutputs(std::move(e.outputs()));
  };
  return def;
}

}  // namespace parity::ops
