#include "properties/trajectory/trajectory_subjects.hpp"

#include "core/find_named.hpp"
#include "subjects/model/rows/model_rows.hpp"
#include "subjects/probes/batch_variant_projection.hpp"

namespace parity::properties::trajectory {
namespace {

std::function<std::unique_ptr<runtime::Runtime>()> strict_with(bool video, bool all) {
  return [video, all] {
    runtime::RuntimeOptions o;
    o.bind_video_projections = video;
    o.bind_all = all;
    return std::make_unique<runtime::Runtime>(parity::model::model_rows(), o);
  };
}

std::vector<TrajectorySubject> build() {
  using subjects::SubjectKind;
  return {
      {"bound-all", SubjectKind::implementation, "strict, every boundary bound to parity's rows (--bind-all)",
       strict_with(true, true)},
      {"bound-video-projections", SubjectKind::implementation,
       "strict with the video projections bound (--bind-video-projections)", strict_with(true, false)},
      {"strict", SubjectKind::reference, "strict; video projections and timestep path on LibTorch",
       strict_with(false, false)},
      {"provider", SubjectKind::reference, "LibTorch everywhere (mode off)", [] {
         return std::unique_ptr<runtime::Runtime>();
       }},
      {"batch-variant-projection", SubjectKind::probe,
       "video projections bound to a row whose reduction order depends on the batch size", [] {
         runtime::RuntimeOptions o;
         o.bind_video_projections = true;
         return std::make_unique<runtime::Runtime>(subjects::probes::rows_with_batch_variant_projections(), o);
       }},
  };
}

}  // namespace

const std::vector<TrajectorySubject>& trajectory_subjects() {
  static const std::vector<TrajectorySubject> all = build();
  return all;
}

const TrajectorySubject& find_trajectory_subject(const std::string& name) {
  return find_named(trajectory_subjects(), name, "trajectory subject");
}

}  // namespace parity::properties::trajectory
