#include <parity/ops/adaln/adaln_host.hpp>

namespace parity::ops::adaln {

std::unique_ptr<OpSubject> make_host_twin() { return std::make_unique<AdaLNHost<Standard>>(); }

}  // namespace parity::ops::adaln
