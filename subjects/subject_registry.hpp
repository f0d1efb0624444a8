#pragma once
// The one way a subject becomes known to parity: parity's own kernels, LibTorch and the probes
// register through it exactly as a user's kernel does.
//
//   #include <parity/subjects/subject_registry.hpp>
//   PARITY_REGISTER_SUBJECT(my_lora, parity::subjects::LoraSubjectInfo{
//       .name = "my-lora-host", .backend = "host", .description = "my LoRA kernel, host path",
//       .make = [] { return std::make_unique<MyLora>(); }});
//
// or, equivalently, parity::subjects::register_subject(info) from a function that runs before
// any property (e.g. at the start of a custom main). The family is the subject type's.
//
// Registration must come before the family's subject list is first read (lora_subjects(),
// find_lora_subject(), `parity list`, a property run): the list is fixed from then on.
// PARITY_REGISTER_SUBJECT registers during static initialisation, which always comes first,
// provided the object file that holds it is linked: a static library drops unreferenced object
// files, so link such a library whole-archive (parity_add_subject_tests does).
#include <string>
#include <utility>
#include <vector>

#include <parity/subjects/subject_info.hpp>

namespace parity::subjects {

// The subjects of one family, in registration order.
template <class Subject>
class SubjectRegistry {
 public:
  // The family's registry (one per process; explicitly instantiated by each family's .cpp).
  static SubjectRegistry& instance();

  // Adds `info`. Throws InputError if its name is empty or already taken in this family or if
  // make is empty, and std::logic_error once the list has been read.
  void add(SubjectInfo<Subject> info);

  // Every registered subject; fixes the list.
  const std::vector<SubjectInfo<Subject>>& entries();

  // The subject named `name`; throws InputError listing the known names otherwise (`family`
  // names the family in that message). Fixes the list.
  const SubjectInfo<Subject>& find(const std::string& name, const std::string& family);

 private:
  std::vector<SubjectInfo<Subject>> entries_;
  bool read_ = false;
};

// Registers `info` with the registry of its family (see SubjectRegistry::add).
template <class Subject>
void register_subject(SubjectInfo<Subject> info) {
  SubjectRegistry<Subject>::instance().add(std::move(info));
}

}  // namespace parity::subjects

// Registers a SubjectInfo at static initialisation. `id` is any identifier unique in the file;
// the rest is an expression of type SubjectInfo<...> (designated initialisers welcome).
#define PARITY_REGISTER_SUBJECT(id, ...)                                                                          \
  namespace {                                                                                                     \
  [[maybe_unused]] const bool parity_registered_##id = (::parity::subjects::register_subject(__VA_ARGS__), true); \
  }
