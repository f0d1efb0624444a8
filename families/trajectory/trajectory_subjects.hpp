#pragma once
// The trajectory family's subjects: binding configurations of the model under which single
// and batched sampling are compared. Only a subject whose every boundary is bound to a routine is an
// implementation: whether a subject that leaves any boundary on LibTorch is batch invariant
// depends on its BLAS kernel, the CPU and the thread count, so such a subject is a reference
// whose divergence is a finding.
//   bound-all                every boundary on parity's routines (--bind-all): must stay bitwise equal
//   bound-all+linear=NAME    every boundary bound, the float32 projections on the op linear's host
//                            implementation subject NAME (families/model/op_bound_routines.hpp)
//   bound-all+OP=NAME        the same with every routine that runs rms_norm, rope, swiglu or sdpa on
//                            that op's NAME (primitive_bound_routines.hpp)
//   bound-video-projections  (reference) strict with proj_in / proj_out bound, the timestep MLP and
//                            AdaLN GEMMs still on LibTorch (the reference's "diag" arm)
//   strict                   (reference) strict with the video projections and the timestep path
//                            on LibTorch
//   provider                 (reference) LibTorch everywhere (mode off)
//   batch-variant-projection (probe) every boundary bound, the video projections to a routine whose
//                            reduction order depends on the batch size, as a split-K kernel's
//                            might: its divergence is parity's own arithmetic on every machine
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <parity/subjects/runtime/runtime.hpp>
#include <parity/subjects/subject_info.hpp>

namespace parity::properties::trajectory {

struct TrajectorySubject {
  std::string name;
  subjects::SubjectKind kind = subjects::SubjectKind::implementation;
  std::string description;
  // A fresh runtime in `mode` for one model call, or nullptr for pure LibTorch (the provider
  // subject, whatever the mode).
  std::function<std::unique_ptr<runtime::Runtime>(runtime::Mode mode)> make;
};

const std::vector<TrajectorySubject>& trajectory_subjects();
const TrajectorySubject& find_trajectory_subject(const std::string& name);  // InputError otherwise
// The name of the subject with every boundary bound and the routines of `op` (linear: the float32
// projections; rms_norm, rope, swiglu, sdpa: the routines that run it) on `kernel`, a host subject of
// that op: bound-all+OP=KERNEL.
std::string trajectory_subject_with_kernel(const std::string& op, const std::string& kernel);
// The ops whose kernels bound-all+OP=NAME subjects run: linear, then rms_norm, rope, swiglu, sdpa
// (the trajectory never reaches the transition step).
const std::vector<std::string>& trajectory_kernel_ops();

}  // namespace parity::properties::trajectory
