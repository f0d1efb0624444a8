#pragma once
// The four runtime modes and what each one means (reference report 000, `runtime_modes`):
//   strict  binds every boundary that has a routine and fails on a fallback;
//   audit   binds like strict but only reports fallbacks (never fails, never changes numerics);
//   auto    binds the routines that pass their self-check on this device, the provider elsewhere;
//   off     the provider everywhere.
// A fallback is a boundary whose routine exists but cannot take this call (dtype, shape, device).
#include <string>
#include <string_view>

namespace parity::runtime {

enum class Mode { strict, audit, automatic, off };

struct ModeSemantics {
  bool bind = false;              // routines are bound where they can take the call
  bool fail_on_fallback = false;  // a fallback raises BindingError
  bool report_only = false;       // fallbacks are recorded and the run goes on
  bool self_check = false;        // a routine is bound only if it passes its self-check here
};

ModeSemantics semantics(Mode mode);
std::string_view mode_name(Mode mode);  // "strict", "audit", "auto", "off"
// Parses a mode name; throws InputError listing the four otherwise.
Mode parse_mode(std::string_view name);

}  // namespace parity::runtime
