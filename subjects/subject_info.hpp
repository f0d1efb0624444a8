#pragma once
// What parity knows about one subject, whatever it implements: a name, the backend it runs on,
// its role, what it can do, and how to make an instance. An op's, SubjectInfo<OpSubject>, is
// OpSubjectInfo (ops/framework/op_subject.hpp); a user's kernel and parity's own are described the
// same way.
//
// Contract on every subject: it is stateless across calls. Properties and fuzzers may keep one
// instance for many calls, and must get the same bits from a call whatever came before it.
#include <functional>
#include <memory>
#include <string>

namespace parity::subjects {

// What a subject is to its family: an implementation must pass every property, a reference
// (LibTorch) is run for findings, a probe must be caught.
enum class SubjectKind { implementation, reference, probe };

std::string subject_kind_name(SubjectKind k);

// What a subject supports beyond its family's minimum. A property that needs a capability the
// subject lacks is reported as not applicable (and not run), never as holding.
struct SubjectCapabilities {
  // Accepts operands of any strides and offsets. If false, generated cases use contiguous
  // operands only and layout_invariant does not apply.
  bool strided_layouts = true;
};

template <class Subject>
struct SubjectInfo {
  std::string name = {};     // unique in its family, e.g. "parity-host" or "my-lora-cuda"
  std::string backend = {};  // "host", "cuda", "torch-cpu", "torch-cuda", ...
  SubjectKind kind = SubjectKind::implementation;
  std::string description;  // one line
  SubjectCapabilities capabilities = {};
  // The subject of the same family that computes the same bits on the host ("" for none):
  // cross_backend_bitwise compares this subject's outputs with it on every generated case.
  std::string host_twin = {};
  // Why it cannot run here ("no CUDA device"), or empty when it can. Left empty at
  // registration, it becomes a function that always returns "" (the subject runs anywhere).
  std::function<std::string()> unavailable_reason = {};
  // A fresh instance. Called only when unavailable_reason() is empty.
  std::function<std::unique_ptr<Subject>()> make = {};
};

}  // namespace parity::subjects
