#include <parity/fuzz/decode.hpp>

#include <parity/core/error.hpp>
#include <parity/fuzz/decode_op.hpp>

namespace parity::fuzz {
namespace {

void require_known(const std::string& family) {
  if (family == "transition")
    throw InputError(
        "family 'transition' has no fuzz harness: transition_fuzzer and its byte format are retired with the "
        "family's former case format, and no parity of this version reads their inputs. op_fuzzer fuzzes the "
        "ops transition_step and transition_score: `parity fuzz-repro transition_step FILE` reads its inputs");
  for (const auto& f : fuzz_families())
    if (f == family) return;
  std::string known;
  for (const auto& f : fuzz_families()) known += (known.empty() ? "" : ", ") + f;
  throw InputError("family '" + family + "' has no fuzz harness (these do: " + known + ")");
}

}  // namespace

const std::vector<std::string>& fuzz_families() { return op_fuzz_ops(); }

std::string harness_name(const std::string& family) {
  require_known(family);
  return "op_fuzzer";
}

FuzzInput decode_for_family(const std::string& family, std::span<const std::uint8_t> bytes,
                            const std::string& subject) {
  require_known(family);
  return decode_op(bytes, family, subject);
}

}  // namespace parity::fuzz
