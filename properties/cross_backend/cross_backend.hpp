#pragma once
// cross_backend_bitwise: a subject with a CUDA and a host path (SubjectInfo::host_twin) gives the
// same bits on both for the same Case (the op families' check: ops/framework/op_checks.hpp). Its
// name and claim, which every family lists it under.

namespace parity::properties::cross_backend {

inline constexpr const char* kProperty = "cross_backend_bitwise";
inline constexpr const char* kDescription = "the subject and its host twin give the same bits";

}  // namespace parity::properties::cross_backend
