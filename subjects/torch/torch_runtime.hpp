#pragma once
// The LibTorch parity was compiled against, and whether it can run on a CUDA device here: for
// reports, provenance and the LibTorch reference subjects' availability. Plain header: callers
// need no LibTorch include.
#include <string>

namespace parity::subjects::torch_impl {

// "MAJOR.MINOR.PATCH" from <torch/version.h> (Debian's 1.13.1 package reports "1.13.0" there).
std::string torch_version_text();

// Why LibTorch cannot run on the first CUDA device here: "LibTorch built without CUDA" or "no
// CUDA device"; "" where it can.
std::string torch_cuda_unavailable_reason();

}  // namespace parity::subjects::torch_impl
