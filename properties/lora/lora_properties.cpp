#include <parity/properties/lora/lora_properties.hpp>

#include <parity/core/error.hpp>
#include <parity/core/find_named.hpp>

namespace parity::properties::lora {

const std::vector<LoraProperty>& lora_properties() {
  static const std::vector<LoraProperty> all = {
      {"repeatable",
       "two runs on fresh buffers give the same bits",
       true,
       &check_repeatable,
       {},
       &check_repeatable_forward},
      {"rows_independent",
       "a row's outputs are the same bits alone and inside a batch",
       true,
       &check_rows_independent,
       {},
       &check_rows_independent_forward},
      {"batch_vs_batch",
       "a row's outputs are the same bits in batches of two sizes above one",
       true,
       &check_batch_vs_batch,
       {},
       &check_batch_vs_batch_forward},
      {"layout_invariant",
       "strided, transposed, padded and offset operands give the same bits",
       true,
       &check_layout_invariant,
       {.strided_layouts = true},
       &check_layout_invariant_forward},
      {"base_frozen",
       "W receives no gradient and its storage is untouched",
       true,
       &check_base_frozen,
       {.backward = true}},
      {"zero_adapter_gradients",
       "with B = 0, dA is exactly 0 and dB is not",
       true,
       &check_zero_adapter_gradients,
       {.backward = true}},
      {"forward_accuracy", "y within its derived error bound of the fast accurate oracle", true,
       &check_forward_accuracy},
      {"gradient_accuracy",
       "dx, dA, dB within their derived bounds of the fast accurate oracle",
       true,
       &check_gradient_accuracy,
       {.backward = true}},
      {"oracle_agreement", "the fast accurate oracle agrees with the 133-bit oracle within both oracles' stated errors",
       false, &check_oracle_agreement},
  };
  return all;
}

const LoraProperty& find_lora_property(const std::string& name) {
  return find_named(lora_properties(), name, "lora property");
}

}  // namespace parity::properties::lora
