#include <parity/ops/layer_norm/layer_norm_host.hpp>

namespace parity::ops::layer_norm {

std::unique_ptr<OpSubject> make_host_twin() { return std::make_unique<LayerNormHost<Standard>>(); }

}  // namespace parity::ops::layer_norm
