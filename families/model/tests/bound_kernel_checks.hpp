#pragma once
// What the kernel-binding tests check of a kernel bound in the model's attention routine: that a
// kernel of a primitive op alone (none of its backward) is listed as leaving the backward to
// parity's, and that the bound routine gives the bits of parity's own.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/families/model/primitive_bound_routines.hpp>
#include <parity/families/model/routines/attention.hpp>
#include <parity/families/model/routines/model_routines.hpp>
#include <parity/families/model/routines/routine_checks.hpp>

namespace parity {

// primitive_kernels(op) lists `kernel`, each listing saying "the backward on parity's OP_backward".
inline void expect_listed_forward_only(const std::string& op, const std::string& kernel) {
  bool listed = false;
  for (const auto& k : properties::model::primitive_kernels(op))
    if (k.name == kernel) {
      listed = true;
      EXPECT_NE(k.description.find("the backward on parity's " + op + "_backward"), std::string::npos) << k.description;
    }
  EXPECT_TRUE(listed) << op << " lists no kernel " << kernel;
}

// The attention routine `info` makes on host gives the bits of parity's own on the example
// operands, forward and backward (d_out: example_operand's `stream`); a failure names `what`. With
// `forward_calls`, which counts the kernel's calls, the routine's forward calls the kernel.
inline void expect_paritys_attention(const runtime::RoutineInfo& info, std::uint32_t stream, const std::string& what,
                                     const std::atomic<int>* forward_calls = nullptr) {
  const std::vector<Tensor> o = model::AttentionOperands::example().list();
  const Tensor d_out = model::example_operand(DType::f32, o.front().shape(), stream);
  const auto routine = info.make(runtime::Backend::host);
  const auto paritys_routine = model::model_routines().for_kind("attention")->make(runtime::Backend::host);
  const int forwards = forward_calls ? forward_calls->load() : 0;
  EXPECT_TRUE(compare_bitwise(routine->forward(o).at(0), paritys_routine->forward(o).at(0)).equal()) << what;
  if (forward_calls) {
    EXPECT_GT(*forward_calls - forwards, 0) << what << " did not serve the routine's forward";
  }
  EXPECT_TRUE(compare_bitwise(routine->backward(o, {d_out}).at(0), paritys_routine->backward(o, {d_out}).at(0)).equal())
      << what;
}

}  // namespace parity
