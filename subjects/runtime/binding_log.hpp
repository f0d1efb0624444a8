#pragma once
// What a run bound where: for every boundary it met, the routine or the provider, and why.
#include <map>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace parity::runtime {

enum class BindingStatus {
  routine,   // the routine ran
  provider,  // the provider ran: no routine, the mode does not bind, an opt-in routine not asked for,
             // an ablation, or a failed self-check (see reason)
  fallback,  // the routine exists but cannot take the call; the provider ran (audit, auto)
};
std::string binding_status_name(BindingStatus s);

struct Binding {
  std::string routine;  // the routine's name, or empty when the boundary has none (or it is opt-in)
  BindingStatus status = BindingStatus::provider;
  std::string reason;
  int calls = 0;  // calls at this boundary with this decision
};

class BindingLog {
 public:
  // Records one call's decision. A boundary whose calls were decided differently takes the
  // most severe status of them (fallback, then provider, then routine) with that call's routine, and
  // lists every differing decision in its reason, so no fallback is hidden behind a routine.
  void record(const std::string& boundary, const Binding& decision);
  const std::map<std::string, Binding>& entries() const { return entries_; }
  bool any_routine() const;
  bool any_fallback() const;
  // {"<boundary>": {"routine": name|null, "status": "...", "reason": "...", "calls": n}, ...}
  nlohmann::json to_json() const;

 private:
  std::map<std::string, Binding> entries_;
};

}  // namespace parity::runtime
