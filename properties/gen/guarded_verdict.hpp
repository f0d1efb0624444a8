#pragma once
// How every runner (run_property, replay, fuzz-repro, the fuzz harnesses, trajectory) counts a
// check of one Case: the family's contract first, a Case outside it being parity's fault
// (invalid_case), never the subject's; then the check, any exception it throws after the
// contract passed being the subject's failure of kind `threw`, except NotApplicable
// (core/error.hpp), which propagates: a property that does not apply is no verdict at all. A shrink keeps a failure
// only while a candidate fails with the same kind: a value failure must not shrink into a throw. Header-only: the fuzz
// harnesses link parity_core alone.
#include <exception>
#include <functional>
#include <string>

#include <parity/core/case.hpp>
#include <parity/core/error.hpp>
#include <parity/core/verdict.hpp>

namespace parity::gen {

// The verdict for a subject that threw `e` while `property` was checked.
inline Verdict threw_verdict(const std::string& property, const std::exception& e) {
  return Verdict::fail(property, std::string("the subject threw: ") + e.what(), FailureKind::threw);
}

// `check(c)` with `contract(c)` (throws InputError outside the contract) checked first; a
// NotApplicable from `check` propagates.
inline Verdict guarded_verdict(const std::string& property, const Case& c,
                               const std::function<void(const Case&)>& contract,
                               const std::function<Verdict(const Case&)>& check) {
  try {
    contract(c);
  } catch (const InputError& e) {
    return Verdict::fail(property, std::string("case outside the family's contract: ") + e.what(),
                         FailureKind::invalid_case);
  }
  try {
    return check(c);
  } catch (const NotApplicable&) {
    throw;
  } catch (const std::exception& e) {
    return threw_verdict(property, e);
  }
}

// Whether `v` reproduces a failure of kind `kind`.
inline bool reproduces(const Verdict& v, FailureKind kind) { return v.fails() && v.kind == kind; }

}  // namespace parity::gen
