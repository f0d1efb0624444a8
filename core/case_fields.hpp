#pragma once
// What a family reads of a Case, so that nothing else passes silently: a field or parameter
// a family ignores is refused (InputError naming it), never ignored.
#include <functional>
#include <string>

#include <parity/core/case.hpp>

namespace parity {

// The optional fields of a Case a family reads (dims, seed and params are checked by the
// family itself).
struct CaseReads {
  std::string family;  // for the message: "the lora family has no runtime mode"
  bool layouts = false, probe_row = false, mode = false, ablations = false, patches = false;
};

// Throws InputError for the first field `reads` leaves out that is not at its default (layouts,
// ablations and patches empty, probe_row 0, mode "strict"), e.g. "case.ablations: the lora
// family reads no ablations (got 1)".
void refuse_unread_fields(const Case& c, const CaseReads& reads);

// Throws InputError "case.params.<key>: unknown parameter (the <family> family reads
// <known_text>)" for the first key of c.params that `known` rejects.
void refuse_unknown_params(const Case& c, const std::function<bool(const std::string&)>& known,
                           const std::string& known_text);

// A switch parameter: absent or 0 is false, 1 is true; anything else (2, 0.5, "nan") throws
// InputError "case.params.<name>: must be 0 or 1".
bool flag_param(const Case& c, const std::string& name);

}  // namespace parity
