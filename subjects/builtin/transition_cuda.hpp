#pragma once
// The CUDA transition kernel (transition.cu) as a TransitionSubject. Plain C++: callers need
// no CUDA headers.
#include <memory>

#include <parity/subjects/transition_family.hpp>

namespace parity::subjects::builtin {

// A subject whose prev, mean, std and logp equal those of the host twin
// (TransitionHostTwin<StandardStep>) bit for bit, for every input, layout and shape: the
// elementwise arithmetic is transition_arith.cuh's, and each row's log-prob is reduced in its
// fixed order (256 lanes, ascending within a lane, then the pairwise tree), which depends on n
// alone, never on B or the grid. score() of a prev that sample() returned reproduces its logp
// bitwise. x and v may be f32 or bf16, and x, v, eps and prev may have any strides and offset;
// outputs are contiguous. Each call runs synchronously on the current device and throws
// std::runtime_error naming the CUDA call that failed (InputError on bad inputs).
std::unique_ptr<TransitionSubject> make_transition_cuda_kernel();

}  // namespace parity::subjects::builtin
