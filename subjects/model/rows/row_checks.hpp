#pragma once
// What the model's rows check before taking a call, and their self-check.
#include <functional>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "subjects/runtime/row.hpp"

namespace parity::model {

// The dtypes a row takes, operand by operand ("" where any dtype would do is not allowed:
// every operand is named). Returns why `call` does not match, or "".
std::string dtype_mismatch(const runtime::BoundaryCall& call, const std::vector<DType>& wanted,
                           const std::vector<std::string>& operand_names);
// Why rows cannot run on `backend` here, or "".
std::string device_mismatch(runtime::Backend backend);

// A self-check: the row built on `backend` runs twice on `example()` with the same bits and
// finite outputs, and on cuda gives the host twin's bits. Empty when it passes.
std::function<std::string(runtime::Backend)> repeatable_self_check(
    std::function<std::unique_ptr<runtime::Row>(runtime::Backend)> make, std::function<std::vector<Tensor>()> example);

}  // namespace parity::model
