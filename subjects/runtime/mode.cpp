#include <parity/subjects/runtime/mode.hpp>

#include <parity/core/error.hpp>

namespace parity::runtime {

ModeSemantics semantics(Mode mode) {
  switch (mode) {
    case Mode::strict:
      return {true, true, false, false};
    case Mode::audit:
      return {true, false, true, false};
    case Mode::automatic:
      return {true, false, false, true};
    case Mode::off:
      return {false, false, false, false};
  }
  return {};
}

std::string_view mode_name(Mode mode) {
  switch (mode) {
    case Mode::strict:
      return "strict";
    case Mode::audit:
      return "audit";
    case Mode::automatic:
      return "auto";
    case Mode::off:
      return "off";
  }
  return "?";
}

Mode parse_mode(std::string_view name) {
  for (Mode m : {Mode::strict, Mode::audit, Mode::automatic, Mode::off})
    if (mode_name(m) == name) return m;
  throw InputError("unknown runtime mode '" + std::string(name) + "' (known: strict, audit, auto, off)");
}

}  // namespace parity::runtime
