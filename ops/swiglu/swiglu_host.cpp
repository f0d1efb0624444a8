#include <parity/ops/swiglu/swiglu_host.hpp>

namespace parity::ops::swiglu {

std::unique_ptr<OpSubject> make_host_twin() { return std::make_unique<SwigluHost<Standard>>(); }

}  // namespace parity::ops::swiglu
