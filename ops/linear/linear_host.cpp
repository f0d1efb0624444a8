#include <parity/ops/linear/linear_host.hpp>

namespace parity::ops::linear {

std::unique_ptr<OpSubject> make_host_twin() { return std::make_unique<LinearHost<Standard>>(); }

}  // namespace parity::ops::linear
