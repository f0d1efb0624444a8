#include <parity/ops/op_families.hpp>

#include <parity/ops/adaln/adaln_family.hpp>
#include <parity/ops/rms_norm/rms_norm_family.hpp>
#include <parity/ops/rope/rope_family.hpp>
#include <parity/ops/softmax/softmax_family.hpp>
#include <parity/ops/swiglu/swiglu_family.hpp>

namespace parity::ops {

const std::vector<const gen::Family*>& op_families() {
  static const std::vector<const gen::Family*> all = {&rms_norm::family(), &softmax::family(), &rope::family(), &swiglu::family(), &adaln::family()};
  return all;
}

}  // namespace parity::ops
