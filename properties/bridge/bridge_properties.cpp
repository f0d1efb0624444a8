#include <parity/properties/bridge/bridge_properties.hpp>

#include <parity/core/error.hpp>
#include <parity/core/find_named.hpp>

namespace parity::properties::bridge {

const std::vector<BridgeProperty>& bridge_properties() {
  static const std::vector<BridgeProperty> all = {
      {"matches_autograd", "logits, loss and all 18 gradients within 1e-10 + 1e-8 |autograd|, none degenerate",
       &check_matches_autograd},
      {"refuses_bad_inputs", "every path refuses every bad token list with one message, and accepts the case's",
       &check_refuses_bad_inputs},
      {"finite_differences", "the manual gradients are central differences of the manual forward",
       &check_finite_differences},
  };
  return all;
}

const BridgeProperty& find_bridge_property(const std::string& name) {
  return find_named(bridge_properties(), name, "bridge property");
}

}  // namespace parity::properties::bridge
