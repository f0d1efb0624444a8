// The LibTorch subjects as the fuzz build sees them: absent. LibTorch (Debian's, built with
// g++) must not be linked into sanitizer-instrumented harnesses, and no harness property needs
// it; the subject catalogs still list the torch-* subjects, which report why they cannot run.
// Linked only into the libFuzzer harnesses (fuzz/CMakeLists.txt), in place of
// parity_torch_subjects.
#include <parity/core/error.hpp>
#include <parity/subjects/torch/lora_torch.hpp>

namespace parity::subjects::torch_impl {
namespace {

constexpr const char* kAbsent = "LibTorch is not linked into the fuzz harnesses (it stays uninstrumented)";

}  // namespace

std::string lora_torch_unavailable_reason(bool) { return kAbsent; }
std::string torch_version_text() { return "absent"; }

std::unique_ptr<LoraSubject> make_lora_torch(bool) { throw InputError(kAbsent); }

}  // namespace parity::subjects::torch_impl
