#include <parity/core/build_info.hpp>

#include <mutex>

#include "parity_commit.h"

#if !defined(PARITY_VERSION) || !defined(PARITY_LIBTORCH_VERSION) || !defined(PARITY_LIBTORCH_CUDA) || \
    !defined(PARITY_CUDA_BUILD)
#error \
    "the build defines PARITY_VERSION, PARITY_LIBTORCH_VERSION, PARITY_LIBTORCH_CUDA, PARITY_CUDA_BUILD (cmake/ParityBuildInfo.cmake)"
#endif

namespace parity {
namespace {

struct NotedDevice {
  std::mutex mutex;
  std::string device;
  std::string runtime;
};

NotedDevice& noted() {
  static NotedDevice n;
  return n;
}

std::string or_none(const std::string& s) { return s.empty() ? "none" : s; }

}  // namespace

const BuildInfo& build_info() {
  static const BuildInfo info{PARITY_VERSION, PARITY_COMMIT, PARITY_LIBTORCH_VERSION, PARITY_LIBTORCH_CUDA,
                              PARITY_CUDA_BUILD};
  return info;
}

void note_cuda_device(const std::string& device, const std::string& runtime) {
  NotedDevice& n = noted();
  const std::lock_guard<std::mutex> lock(n.mutex);
  n.device = device;
  n.runtime = runtime;
}

nlohmann::ordered_json environment_json() {
  const BuildInfo& b = build_info();
  std::string device, runtime;
  {
    NotedDevice& n = noted();
    const std::lock_guard<std::mutex> lock(n.mutex);
    device = n.device;
    runtime = n.runtime;
  }
  if (runtime.empty()) runtime = !b.cuda_build.empty() ? b.cuda_build : b.libtorch_cuda;
  nlohmann::ordered_json j;
  j["parity"] = b.version;
  j["commit"] = b.commit;
  j["libtorch"] = b.libtorch;
  j["libtorch_cuda"] = or_none(b.libtorch_cuda);
  j["cuda_runtime"] = or_none(runtime);
  j["device"] = device.empty() ? "cpu" : device;
  return j;
}

}  // namespace parity
