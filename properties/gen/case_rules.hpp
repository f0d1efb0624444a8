#pragma once
// What every Case of a family must satisfy, for the Cases parity makes itself rather than draws
// (the shrinker's pass after RapidCheck's, the contract test over generated cases): the
// family's contract, checked in one place, and the rules that tie its fields together when an
// extent changes. Each family's generator header declares its rules.
#include <functional>

#include <parity/core/case.hpp>

namespace parity::gen {

struct CaseRules {
  // Throws InputError naming the field for a Case outside the family's contract. Every Case
  // the family's generator draws satisfies it.
  std::function<void(const Case&)> check_contract;
  // `c` after one of its extents changed, with the fields that depend on extents brought back
  // in range as the generator would have drawn them (the probe row below the batch, per-row
  // parameters for each row and no other, patch indices inside their operand). It does not
  // otherwise check the contract.
  std::function<Case(Case)> conform;
};

}  // namespace parity::gen
