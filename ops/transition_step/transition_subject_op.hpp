#pragma once
// Every subject of parity's transition family (subjects/transition_family.hpp) as a subject of
// the ops transition_step and transition_score: its sampling step called with the op's x, v, eps
// and parameters, each row at its sigma and sigma_prev, returning prev, mean, std and logp; its
// scoring step with x, v, prev, returning logp (unavailable where the subject does not score). So the subjects a
// transition kernel already has (parity's host twin and CUDA kernel, LibTorch's, a user's, the
// probes) get the generic properties under the same names, kinds, backends, twins and
// capabilities. A subject's declared accuracy contract is its arithmetic for the bounds: a fixed
// 256-lane tree becomes 256 reduction lanes, its log's ulps the log's.
namespace parity::ops::transition_step {

// Registers them as subjects of transition_step; reads (and so fixes) the transition family's
// list.
void register_transition_subjects();
// The same as subjects of transition_score.
void register_transition_score_subjects();

}  // namespace parity::ops::transition_step
