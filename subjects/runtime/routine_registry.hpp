#pragma once
// The routines a runtime may bind, in registration order. At most one routine serves a kind.
#include <string>
#include <vector>

#include <parity/subjects/runtime/routine.hpp>

namespace parity::runtime {

class RoutineRegistry {
 public:
  // Throws InputError if the name is taken or a kind it serves already has a routine.
  void add(RoutineInfo routine);
  // The routine serving `kind`, or nullptr when the kind has none (left to the provider).
  const RoutineInfo* for_kind(const std::string& kind) const;
  const RoutineInfo& find(const std::string& name) const;  // InputError listing the names
  const std::vector<RoutineInfo>& routines() const { return routines_; }

 private:
  std::vector<RoutineInfo> routines_;
};

}  // namespace parity::runtime
