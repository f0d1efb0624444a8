#include <parity/subjects/runtime/binding_log.hpp>

#include <nlohmann/json.hpp>

namespace parity::runtime {

std::string binding_status_name(BindingStatus s) {
  switch (s) {
    case BindingStatus::routine:
      return "routine";
    case BindingStatus::provider:
      return "provider";
    case BindingStatus::fallback:
      return "fallback";
  }
  return "?";
}

namespace {

int severity(BindingStatus s) {
  switch (s) {
    case BindingStatus::routine:
      return 0;
    case BindingStatus::provider:
      return 1;
    case BindingStatus::fallback:
      return 2;
  }
  return 2;
}

}  // namespace

void BindingLog::record(const std::string& boundary, const Binding& decision) {
  auto [it, fresh] = entries_.try_emplace(boundary, decision);
  Binding& b = it->second;
  if (fresh) {
    b.calls = 1;
    return;
  }
  if (b.status != decision.status || b.routine != decision.routine) {
    b.reason += "; call " + std::to_string(b.calls + 1) + ": " + binding_status_name(decision.status) + " (" +
                decision.reason + ")";
    if (severity(decision.status) > severity(b.status)) {
      b.status = decision.status;
      b.routine = decision.routine;
    }
  }
  ++b.calls;
}

bool BindingLog::any_routine() const {
  for (const auto& [_, b] : entries_)
    if (b.status == BindingStatus::routine) return true;
  return false;
}

bool BindingLog::any_fallback() const {
  for (const auto& [_, b] : entries_)
    if (b.status == BindingStatus::fallback) return true;
  return false;
}

nlohmann::json BindingLog::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, b] : entries_)
    j[name] = {{"routine", b.routine.empty() ? nlohmann::json(nullptr) : nlohmann::json(b.routine)},
               {"status", binding_status_name(b.status)},
               {"reason", b.reason},
               {"calls", b.calls}};
  return j;
}

}  // namespace parity::runtime
