#include <parity/ops/rms_norm/rms_norm_host.hpp>

#include <parity/ops/rms_norm/rms_norm_backward_host.hpp>

namespace parity::ops::rms_norm {

std::unique_ptr<OpSubject> make_host_twin() { return std::make_unique<RmsNormHost<Standard>>(); }
std::unique_ptr<OpSubject> make_backward_host_twin() {
  return std::make_unique<RmsNormBackwardHost<BackwardStandard>>();
}

}  // namespace parity::ops::rms_norm
