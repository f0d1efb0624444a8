#include <parity/fuzz/decode.hpp>

#include <parity/core/error.hpp>
#include <parity/fuzz/decode_lora.hpp>
#include <parity/fuzz/decode_transition.hpp>

namespace parity::fuzz {
namespace {

void require_known(const std::string& family) {
  for (const auto& f : fuzz_families())
    if (f == family) return;
  throw InputError("family '" + family + "' has no fuzz harness (these do: lora, transition)");
}

}  // namespace

const std::vector<std::string>& fuzz_families() {
  static const std::vector<std::string> all = {"lora", "transition"};
  return all;
}

std::string harness_name(const std::string& family) {
  require_known(family);
  return family + "_fuzzer";
}

FuzzInput decode_for_family(const std::string& family, std::span<const std::uint8_t> bytes) {
  require_known(family);
  return family == "lora" ? decode_lora(bytes) : decode_transition(bytes);
}

const std::vector<std::string>& fuzz_properties(const std::string& family) {
  require_known(family);
  return family == "lora" ? lora_fuzz_properties() : transition_fuzz_properties();
}

}  // namespace parity::fuzz
