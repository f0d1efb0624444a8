#pragma once
// The plumbing of the harnesses that feed JSON to parity's input validators
// (repro_parser_fuzzer, *_case_fuzzer): parse without crashing, tell a clean refusal
// (InputError) from anything else, and guard the cost of what a validator accepted.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <parity/core/case.hpp>
#include <parity/core/error.hpp>

namespace parity::fuzz {

// The Case in `data`: a Case object, or the "case" member of a reproducer object. nullopt
// when the bytes are not JSON or case_from_json refuses them with an InputError; any other
// exception is a bug of the parser and traps (trap_unexpected).
std::optional<Case> parse_case(const std::uint8_t* data, std::size_t size, const char* harness);

// Runs `f`; returns false when it throws InputError (a clean refusal), true when it returns.
// Any other exception traps with a message naming `harness` and `what`.
template <class F>
bool accepted(F&& f, const char* harness, const char* what);

// Traps unless case_from_json(case_to_json(c)) prints as c does (docs/design.md, "Rules": a Case
// round-trips through JSON exactly; NaN parameters compare by their text).
void require_round_trip(const Case& c, const char* harness);

// Prints "<harness>: <what> threw <type>: <message>" and traps.
[[noreturn]] void trap_unexpected(const char* harness, const char* what, const std::exception& e);

// c.dims[name] as a double for cost guards, or 1 where it is missing or below 1 (the
// validator refuses such a case; the guard only needs a size).
double dim_or_1(const Case& c, const char* name);

}  // namespace parity::fuzz

template <class F>
bool parity::fuzz::accepted(F&& f, const char* harness, const char* what) {
  try {
    f();
    return true;
  } catch (const InputError&) {
    return false;
  } catch (const std::exception& e) {
    trap_unexpected(harness, what, e);
  }
}
