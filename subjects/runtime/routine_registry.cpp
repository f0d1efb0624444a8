#include <parity/subjects/runtime/routine_registry.hpp>

#include <parity/core/error.hpp>
#include <parity/core/find_named.hpp>

namespace parity::runtime {

std::string backend_name(Backend b) { return b == Backend::host ? "host" : "cuda"; }

void RoutineRegistry::add(RoutineInfo routine) {
  for (const auto& r : routines_) {
    if (r.name == routine.name) throw InputError("routine '" + routine.name + "' is registered twice");
    for (const auto& k : routine.serves)
      for (const auto& existing : r.serves)
        if (k == existing)
          throw InputError("routines '" + r.name + "' and '" + routine.name + "' both serve '" + k + "'");
  }
  routines_.push_back(std::move(routine));
}

const RoutineInfo* RoutineRegistry::for_kind(const std::string& kind) const {
  for (const auto& r : routines_)
    for (const auto& k : r.serves)
      if (k == kind) return &r;
  return nullptr;
}

const RoutineInfo& RoutineRegistry::find(const std::string& name) const {
  return find_named(routines_, name, "routine");
}

}  // namespace parity::runtime
