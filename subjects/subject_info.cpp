#include <parity/subjects/subject_info.hpp>

namespace parity::subjects {

std::string subject_kind_name(SubjectKind k) {
  switch (k) {
    case SubjectKind::implementation:
      return "implementation";
    case SubjectKind::reference:
      return "reference";
    case SubjectKind::probe:
      return "probe";
  }
  return "?";
}

}  // namespace parity::subjects
