#include <parity/families/trajectory/trajectory_subjects.hpp>

#include <parity/core/find_named.hpp>
#include <parity/families/model/batch_variant_projection.hpp>
#include <parity/families/model/model_subjects.hpp>
#include <parity/families/model/op_bound_routines.hpp>
#include <parity/families/model/primitive_bound_routines.hpp>
#include <parity/families/model/routines/model_routines.hpp>
#include <parity/families/model/transition_bound_routines.hpp>

namespace parity::properties::trajectory {
namespace {

std::function<std::unique_ptr<runtime::Runtime>(runtime::Mode)> bound(
    bool video, bool all, const runtime::RoutineRegistry& routines = parity::model::model_routines()) {
  return [video, all, &routines](runtime::Mode mode) {
    runtime::RuntimeOptions o;
    o.mode = mode;
    o.bind_video_projections = video;
    o.bind_all = all;
    return std::make_unique<runtime::Runtime>(routines, o);
  };
}

std::vector<TrajectorySubject> build() {
  using subjects::SubjectKind;
  std::vector<TrajectorySubject> all = {
      {"bound-all", SubjectKind::implementation, "every boundary bound to parity's routines (--bind-all)",
       bound(true, true)},
      {"bound-video-projections", SubjectKind::reference,
       "the video projections bound; timestep path and AdaLN on LibTorch (--bind-video-projections)",
       bound(true, false)},
      {"strict", SubjectKind::reference, "the default routines; video projections and timestep path on LibTorch",
       bound(false, false)},
      {"provider", SubjectKind::reference, "LibTorch everywhere (no runtime)",
       [](runtime::Mode) { return std::unique_ptr<runtime::Runtime>(); }},
      {"batch-variant-projection", SubjectKind::probe,
       "every boundary bound, the video projections to a routine whose reduction order depends on the batch size",
       [](runtime::Mode mode) {
         runtime::RuntimeOptions o;
         o.mode = mode;
         o.bind_video_projections = true;
         o.bind_all = true;
         return std::make_unique<runtime::Runtime>(subjects::probes::routines_with_batch_variant_projections(), o);
       }},
  };
  // Every boundary bound, the float32 projections on a host kernel of the op linear, a user's
  // registered ones included (families/model/op_bound_routines.hpp).
  for (const auto& k : model::projection_kernels()) {
    if (k.backend != runtime::Backend::host) continue;
    all.push_back({trajectory_subject_with_kernel(model::kProjectionOp, k.name), SubjectKind::implementation,
                   "every boundary bound, the float32 projections on linear's " + k.name + " (" + k.description + ")",
                   bound(true, true, model::routines_with_projection_kernel(k.name, runtime::Backend::host))});
  }
  // Every boundary bound, the routines that run rms_norm, rope, swiglu or sdpa on a host kernel of
  // that op (families/model/primitive_bound_routines.hpp).
  for (const std::string& op : model::primitive_ops()) {
    for (const auto& k : model::primitive_kernels(op)) {
      if (k.backend != runtime::Backend::host) continue;
      all.push_back(
          {trajectory_subject_with_kernel(op, k.name), SubjectKind::implementation,
           "every boundary bound, " + op + " on " + k.name + " (" + k.description + ") in every routine that runs it",
           bound(true, true, model::routines_with_primitive_kernel(op, k.name, runtime::Backend::host))});
    }
  }
  return all;
}

}  // namespace

std::string trajectory_subject_with_kernel(const std::string& op, const std::string& kernel) {
  return "bound-all+" + op + "=" + kernel;
}

const std::vector<std::string>& trajectory_kernel_ops() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> out;
    for (const std::string& op : model::model_kernel_ops())
      if (op != model::kTransitionOp) out.push_back(op);
    return out;
  }();
  return ops;
}

const std::vector<TrajectorySubject>& trajectory_subjects() {
  static const std::vector<TrajectorySubject> all = build();
  return all;
}

const TrajectorySubject& find_trajectory_subject(const std::string& name) {
  return find_named(trajectory_subjects(), name, "trajectory subject");
}

}  // namespace parity::properties::trajectory
