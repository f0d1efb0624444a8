#include <parity/ops/framework/tests/scale_op.hpp>

#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/case_of.hpp>

namespace parity::ops::testing {

Case scale_case(std::int64_t T, std::int64_t D, DType in, DType out, std::uint64_t seed) {
  return case_of("test_scale", seed, {{"T", T}, {"D", D}},
                 {{"dtype.in", dtype_code(in)}, {"dtype.out", dtype_code(out)}});
}

}  // namespace parity::ops::testing
