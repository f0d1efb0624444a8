#include <parity/ops/softmax/softmax_host.hpp>

namespace parity::ops::softmax {

std::unique_ptr<OpSubject> make_host_twin() { return std::make_unique<SoftmaxHost<Standard>>(); }

}  // namespace parity::ops::softmax
