#pragma once
// The model's RMSNorm on kernels of the ops rms_norm and rms_norm_backward (ops/rms_norm), over the
// last dim C of x (any rank: the leading dims are token rows, T = x.numel() / C): y, and dx for dy
// of x's shape, requested as float32. The model's RMSNorm without a weight (w = nullptr) is called
// with a weight of ones: x r * 1 and dy * 1 are exact, so it is the unweighted norm bit for bit. A
// kernel that returns no float32 output of x's shape throws runtime_error naming it.
#include <memory>
#include <string>

#include <parity/families/model/routines/primitives.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::model {

// `p` with rms_norm_forward on `forward` and rms_norm_backward_input on `backward` (subjects of
// rms_norm and rms_norm_backward, named `subject` in errors).
Primitives with_rms_norm_kernels(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> forward,
                                 std::shared_ptr<ops::OpSubject> backward);

}  // namespace parity::model
