#include <parity/families/lora/lora_properties.hpp>

#include <map>
#include <utility>

#include <parity/core/error.hpp>
#include <parity/core/find_named.hpp>

namespace parity::properties::lora {

const std::vector<LoraProperty>& lora_properties() {
  static const std::vector<LoraProperty> all = {
      {"base_frozen", "W receives no gradient and its storage is untouched", &check_base_frozen},
      {"zero_adapter_gradients", "with B = 0, dA is exactly 0 and dB is not", &check_zero_adapter_gradients},
  };
  return all;
}

void refuse_moved_property(const std::string& name) {
  // The op property that replaces each, and the `parity check` command that runs it.
  static const std::map<std::string, std::pair<std::string, std::string>> moved = [] {
    std::map<std::string, std::pair<std::string, std::string>> m;
    for (const char* both : {"repeatable", "rows_independent", "batch_vs_batch", "layout_invariant"})
      m[both] = {std::string("lora_forward's and lora_backward's ") + both,
                 std::string("lora_forward --property ") + both + ", and likewise lora_backward"};
    m["forward_accuracy"] = {"lora_forward's forward_accuracy", "lora_forward --property forward_accuracy"};
    m["gradient_accuracy"] = {"lora_backward's forward_accuracy", "lora_backward --property forward_accuracy"};
    m["oracle_agreement"] = {"lora_forward's and lora_backward's oracle_agreement",
                             "lora_forward --property oracle_agreement --subject parity-oracles, and likewise "
                             "lora_backward"};
    m["cross_backend_bitwise"] = {"lora_forward's and lora_backward's cross_backend_bitwise",
                                  "lora_forward --property cross_backend_bitwise --subject parity-cuda, and likewise "
                                  "lora_backward"};
    return m;
  }();
  if (const auto it = moved.find(name); it != moved.end())
    throw InputError("lora property '" + name + "' is now the ops': " + it->second.first + " (parity check " +
                     it->second.second + "); the lora family neither checks it nor replays a Case of it");
}

const LoraProperty& find_lora_property(const std::string& name) {
  refuse_moved_property(name);
  return find_named(lora_properties(), name, "lora property");
}

}  // namespace parity::properties::lora
