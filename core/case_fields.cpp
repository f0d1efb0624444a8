#include <parity/core/case_fields.hpp>

#include <parity/core/error.hpp>

namespace parity {

void refuse_unread_fields(const Case& c, const CaseReads& reads) {
  const std::string by = "the " + c.family + " family reads ";
  if (!reads.layouts && !c.layouts.empty())
    throw InputError("case.layouts." + c.layouts.begin()->first + ": " + by + "no layouts");
  if (!reads.probe_row && c.probe_row != 0)
    throw InputError("case.probe_row: " + by + "no probe row (got " + std::to_string(c.probe_row) + ")");
  if (!reads.mode && c.mode != "strict")
    throw InputError("case.mode: " + by + "no runtime mode (got '" + c.mode + "'; only the default strict)");
  if (!reads.ablations && !c.ablations.empty())
    throw InputError("case.ablations: " + by + "no ablations (got " + std::to_string(c.ablations.size()) + ")");
  if (!reads.patches && !c.patches.empty())
    throw InputError("case.patches: " + by + "no patches (got " + std::to_string(c.patches.size()) + ")");
}

void refuse_unknown_params(const Case& c, const std::function<bool(const std::string&)>& known,
                           const std::string& known_text) {
  for (const auto& [key, value] : c.params)
    if (!known(key))
      throw InputError("case.params." + key + ": unknown parameter (the " + c.family + " family reads " + known_text +
                       ")");
}

bool flag_param(const Case& c, const std::string& name) {
  const double v = c.param(name, 0.0);
  if (v != 0.0 && v != 1.0) throw InputError("case.params." + name + ": must be 0 or 1");
  return v == 1.0;
}

}  // namespace parity
