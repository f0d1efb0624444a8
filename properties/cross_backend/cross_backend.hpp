#pragma once
// cross_backend_bitwise: a subject with a CUDA and a host path (SubjectInfo::host_twin) gives the
// same bits on both for the same Case. Plain C++ check functions, like every property's.
#include <parity/core/case.hpp>
#include <parity/core/verdict.hpp>
#include <parity/subjects/transition_family.hpp>

namespace parity::properties::cross_backend {

inline constexpr const char* kProperty = "cross_backend_bitwise";
inline constexpr const char* kDescription = "the subject and its host twin give the same bits";

// prev, mean, std and logp of sample, and score(prev) when `scoring`, bitwise equal.
Verdict check_transition(const Case& c, subjects::TransitionSubject& subject, subjects::TransitionSubject& twin,
                         bool scoring);

}  // namespace parity::properties::cross_backend
