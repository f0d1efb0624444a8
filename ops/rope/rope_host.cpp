#include <parity/ops/rope/rope_host.hpp>

namespace parity::ops::rope {

std::unique_ptr<OpSubject> make_host_twin() { return std::make_unique<RopeHost<Standard>>(); }

}  // namespace parity::ops::rope
