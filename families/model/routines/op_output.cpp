#include <parity/families/model/routines/op_output.hpp>

#include <stdexcept>

#include <parity/core/tensor.hpp>

namespace parity::model {

Tensor float_output(ops::OpOutputs& out, const std::string& op, const std::string& subject, const std::string& name,
                    const std::vector<std::int64_t>& shape, const std::string& use) {
  const auto it = out.find(name);
  if (it == out.end() || it->second.dtype() != DType::f32 || it->second.shape() != shape) {
    throw std::runtime_error(op + " subject " + subject + " did not return " + name + ", float32 " + shape_text(shape) +
                             ", for " + use);
  }
  return std::move(it->second);
}

}  // namespace parity::model
