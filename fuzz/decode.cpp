#include <parity/fuzz/decode.hpp>

#include <parity/core/error.hpp>
#include <parity/fuzz/decode_op.hpp>
#include <parity/fuzz/decode_transition.hpp>

namespace parity::fuzz {
namespace {

void require_known(const std::string& family) {
  for (const auto& f : fuzz_families())
    if (f == family) return;
  std::string known;
  for (const auto& f : fuzz_families()) known += (known.empty() ? "" : ", ") + f;
  throw InputError("family '" + family + "' has no fuzz harness (these do: " + known + ")");
}

bool is_op(const std::string& family) { return family != "transition"; }

}  // namespace

const std::vector<std::string>& fuzz_families() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> out = {"transition"};
    for (const auto& op : op_fuzz_ops()) out.push_back(op);
    return out;
  }();
  return all;
}

std::string harness_name(const std::string& family) {
  require_known(family);
  return is_op(family) ? "op_fuzzer" : family + "_fuzzer";
}

FuzzInput decode_for_family(const std::string& family, std::span<const std::uint8_t> bytes,
                            const std::string& subject) {
  require_known(family);
  if (is_op(family)) return decode_op(bytes, family, subject);
  return decode_transition(bytes);
}

std::vector<std::string> fuzz_properties(const std::string& family, const std::string& subject) {
  require_known(family);
  if (is_op(family)) return op_fuzz_properties(family, subject);
  return transition_fuzz_properties();
}

}  // namespace parity::fuzz
