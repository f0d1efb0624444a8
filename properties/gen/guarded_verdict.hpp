#pragma once
// How every runner (run_property, replay, fuzz-repro, the fuzz harnesses, trajectory) counts a
// check of one Case: the family's contract first, a Case outside it being parity's fault
// (invalid_case), never the subject's; then the check, any exception it throws after the
// contract passed being the subject's failure (of kind `threw`, or out_of_memory or device_fault
// as core/exception_kind.hpp reads it), except NotApplicable (core/error.hpp), which propagates: a
// property that does not apply is no verdict at all, and WorkerError, parity's own fault. A shrink keeps a failure
// only while a candidate fails with the same kind: a value failure must not shrink into a throw. Header-only: the fuzz
// harnesses link parity_core alone.
#include <exception>
#include <functional>
#include <string>

#include <parity/core/case.hpp>
#include <parity/core/error.hpp>
#include <parity/core/exception_kind.hpp>
#include <parity/core/verdict.hpp>

namespace parity::gen {

// The verdict for a subject that threw `e` while `property` was checked: "the subject threw: ...",
// "out of memory: the subject threw: ...", or "device fault: cudaErrorIllegalAddress (the subject
// threw: ...)".
inline Verdict threw_verdict(const std::string& property, const std::exception& e) {
  const std::string threw = std::string("the subject threw: ") + e.what();
  const ExceptionKind k = exception_kind(e);
  if (k.kind == FailureKind::device_fault)
    return Verdict::fail(property, "device fault: " + k.label + " (" + threw + ")", k.kind);
  if (k.kind == FailureKind::out_of_memory) return Verdict::fail(property, "out of memory: " + threw, k.kind);
  return Verdict::fail(property, threw, FailureKind::threw);
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
  } catch (const WorkerError&) {
    throw;
  } catch (const std::exception& e) {
    return threw_verdict(property, e);
  }
}

// Whether `v` reproduces a failure of kind `kind`.
inline bool reproduces(const Verdict& v, FailureKind kind) { return v.fails() && v.kind == kind; }

}  // namespace parity::gen
