#include <parity/ops/op_families.hpp>

#include <parity/ops/layer_norm/layer_norm_family.hpp>
#include <parity/ops/linear/linear_family.hpp>
#include <parity/ops/rms_norm/rms_norm_family.hpp>
#include <parity/ops/softmax/softmax_family.hpp>

namespace parity::ops {

const std::vector<const gen::Family*>& op_families() {
  static const std::vector<const gen::Family*> all = {&rms_norm::family(), &softmax::family(), &linear::family(),
                                                       &layer_norm::family()};
  return all;
}

}  // namespace parity::ops
