#include <parity/ops/swiglu/swiglu_host.hpp>

#include <parity/ops/swiglu/swiglu_backward_host.hpp>

namespace parity::ops::swiglu {

std::unique_ptr<OpSubject> make_host_twin() { return std::make_unique<SwigluHost<Standard>>(); }
std::unique_ptr<OpSubject> make_backward_host_twin() {
  return std::make_unique<SwigluBackwardHost<BackwardStandard>>();
}

}  // namespace parity::ops::swiglu
