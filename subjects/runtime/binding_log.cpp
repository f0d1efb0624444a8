#include <parity/subjects/runtime/binding_log.hpp>

#include <nlohmann/json.hpp>

namespace parity::runtime {

std::string binding_status_name(BindingStatus s) {
  switch (s) {
    case BindingStatus::row:
      return "row";
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
    case BindingStatus::row:
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
  if (b.status != decision.status || b.row != decision.row) {
    b.reason += "; call " + std::to_string(b.calls + 1) + ": " + binding_status_name(decision.status) + " (" +
                decision.reason + ")";
    if (severity(decision.status) > severity(b.status)) {
      b.status = decision.status;
      b.row = decision.row;
    }
  }
  ++b.calls;
}

bool BindingLog::any_row() const {
  for (const auto& [_, b] : entries_)
    if (b.status == BindingStatus::row) return true;
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
    j[name] = {{"row", b.row.empty() ? nlohmann::json(nullptr) : nlohmann::json(b.row)},
               {"status", binding_status_name(b.status)},
               {"reason", b.reason},
               {"calls", b.calls}};
  return j;
}

}  // namespace parity::runtime
