#pragma once
// Where a result came from: this parity's version and commit, the LibTorch it was built
// against, the CUDA runtime and the device it ran on. The gate's report and every reproducer
// carry environment_json().
#include <string>

#include <nlohmann/json.hpp>

namespace parity {

struct BuildInfo {
  std::string version;        // parity's, "0.1.0"
  std::string commit;         // the git commit built (uncommitted changes unmarked), or "unknown"
  std::string libtorch;       // the LibTorch built against, "2.11.0+cu130" or "1.13.0"
  std::string libtorch_cuda;  // the CUDA that LibTorch was built with, "13.0", or "" (CPU only)
  std::string cuda_build;     // the CUDA toolkit parity's kernels were built with, or "" (none)
};
const BuildInfo& build_info();

// Called by parity's CUDA backend once it has found a usable device: its name and the CUDA
// runtime version this process loaded ("13.0"). Thread-safe; the last call wins.
void note_cuda_device(const std::string& device, const std::string& runtime);

// {"parity", "commit", "libtorch", "libtorch_cuda", "cuda_runtime", "device"}: "device" is the
// CUDA device noted by note_cuda_device, else "cpu"; "cuda_runtime" the runtime noted with it,
// else the CUDA this build links (parity's toolkit, else LibTorch's), else "none";
// "libtorch_cuda" is "none" for a CPU-only LibTorch.
nlohmann::ordered_json environment_json();

}  // namespace parity
