#include <parity/properties/lora/oracle_inputs.hpp>

namespace parity::properties::lora {

OracleInputs::OracleInputs(const LoraProblem& p)
    : x(p.in.x.values()), W(p.in.W.values()), A(p.in.A.values()), B(p.in.B.values()), G(p.dy.values()) {
  operands.T = p.in.x.dim(0);
  operands.K = p.in.x.dim(1);
  operands.N = p.in.W.dim(0);
  operands.r = p.in.A.dim(0);
  operands.x = x;
  operands.W = W;
  operands.A = A;
  operands.B = B;
  operands.G = G;
  operands.scale = static_cast<double>(p.in.scale);
}

}  // namespace parity::properties::lora
