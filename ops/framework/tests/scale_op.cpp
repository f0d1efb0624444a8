#include <parity/ops/framework/tests/scale_op.hpp>

#include <parity/ops/framework/op_problem.hpp>

namespace parity::ops::testing {

Case scale_case(std::int64_t T, std::int64_t D, DType in, DType out, std::uint64_t seed) {
  Case c;
  c.family = "test_scale";
  c.seed = seed;
  c.dims = {{"T", T}, {"D", D}};
  c.params = {{"dtype.in", dtype_code(in)}, {"dtype.out", dtype_code(out)}};
  return c;
}

}  // namespace parity::ops::testing
