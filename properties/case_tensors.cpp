#include <parity/properties/case_tensors.hpp>

namespace parity::properties {

Tensor scalar_tensor(DType dtype, double v) {
  Tensor t = Tensor::zeros(dtype, {});
  t.set_value(0, v);
  return t;
}

}  // namespace parity::properties
