// LibTorch as the fuzz build sees it: absent. LibTorch (Debian's, built with g++) must not be
// linked into sanitizer-instrumented harnesses, and no harness property needs it. Linked only
// into the libFuzzer harnesses (fuzz/CMakeLists.txt), in place of parity_torch_subjects.
#include <parity/subjects/torch/torch_runtime.hpp>

namespace parity::subjects::torch_impl {

std::string torch_version_text() { return "absent"; }
std::string torch_cuda_unavailable_reason() { return "LibTorch is not linked into the fuzz harnesses"; }

}  // namespace parity::subjects::torch_impl
