#pragma once
// What the model's adapters of op kernels (linear_kernel, sdpa_kernels, swiglu_kernel,
// rms_norm_kernels, rope_kernel) take from a kernel's run: a float32 output of the shape the routine
// needs, or a runtime_error that names the op, the subject and the routine.
#include <cstdint>
#include <string>
#include <vector>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::model {

// Output `name` of `out` (a run of `subject`, a kernel of `op`), moved out; throws runtime_error
// "<op> subject <subject> did not return <name>, float32 [<shape>], for <use>" when it is missing
// or has another dtype or shape.
Tensor float_output(ops::OpOutputs& out, const std::string& op, const std::string& subject, const std::string& name,
                    const std::vector<std::int64_t>& shape, const std::string& use);

}  // namespace parity::model
