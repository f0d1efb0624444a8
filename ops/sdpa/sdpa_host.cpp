#include <parity/ops/sdpa/sdpa_backward_host.hpp>
#include <parity/ops/sdpa/sdpa_host.hpp>

namespace parity::ops::sdpa {

std::unique_ptr<OpSubject> make_host_twin() { return std::make_unique<SdpaHost<Standard>>(); }
std::unique_ptr<OpSubject> make_backward_host_twin() { return std::make_unique<SdpaBackwardHost<BackwardStandard>>(); }

}  // namespace parity::ops::sdpa
