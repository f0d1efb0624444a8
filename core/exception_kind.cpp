#include <parity/core/exception_kind.hpp>

#include <new>
#include <utility>

namespace parity {
namespace {

// cudaGetErrorString's text for each sticky error, with the error's name.
constexpr std::pair<const char*, const char*> kStickyCudaErrors[] = {
    {"an illegal memory access was encountered", "cudaErrorIllegalAddress"},
    {"device-side assert triggered", "cudaErrorAssert"},
    {"unspecified launch failure", "cudaErrorLaunchFailure"},
    {"misaligned address", "cudaErrorMisalignedAddress"},
    {"an illegal instruction was encountered", "cudaErrorIllegalInstruction"},
    {"hardware stack error", "cudaErrorHardwareStackError"},
    {"invalid program counter", "cudaErrorInvalidPc"},
    {"operation not supported on global/shared address space", "cudaErrorInvalidAddressSpace"},
    {"the launch timed out and was terminated", "cudaErrorLaunchTimeout"},
    {"uncorrectable ECC error encountered", "cudaErrorECCUncorrectable"},
};

}  // namespace

ExceptionKind exception_kind(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e)) return {FailureKind::out_of_memory, ""};
  const std::string what = e.what();
  for (const auto& [text, name] : kStickyCudaErrors)
    if (what.find(text) != std::string::npos) return {FailureKind::device_fault, name};
  if (what.find("out of memory") != std::string::npos || what.find("can't allocate memory") != std::string::npos)
    return {FailureKind::out_of_memory, ""};
  return {FailureKind::threw, ""};
}

bool ends_the_worker(FailureKind k) {
  switch (k) {
    case FailureKind::crashed:
    case FailureKind::aborted:
    case FailureKind::hung:
    case FailureKind::device_fault:
    case FailureKind::out_of_memory:
      return true;
    default:
      return false;
  }
}

}  // namespace parity
