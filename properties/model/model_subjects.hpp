#pragma once
// The model family's subjects: runtimes. parity's own runtime binds the rows on the host twin
// or on CUDA; the probes are runtimes with one defect each (subjects/probes).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <parity/subjects/subject_info.hpp>  // SubjectKind
#include <parity/subjects/runtime/runtime.hpp>

namespace parity::properties::model {

struct ModelSubject {
  std::string name;
  std::string backend;  // where the rows run: "host" or "cuda"
  subjects::SubjectKind kind = subjects::SubjectKind::implementation;
  std::string description;
  std::function<std::string()> unavailable;  // why it cannot run here, or ""
  // A fresh runtime over the model's rows for `options` (the subject sets the backend).
  std::function<std::unique_ptr<runtime::Runtime>(runtime::RuntimeOptions options)> make;
};

const std::vector<ModelSubject>& model_subjects();
// InputError listing the known names otherwise.
const ModelSubject& find_model_subject(const std::string& name);

}  // namespace parity::properties::model
