#pragma once
// What sdpa's unit tests share: the two op families and hand-made cases of them.
#include <cstdint>
#include <string>

#include <parity/core/case.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops::sdpa::testing {

using ops::testing::case_of;
using ops::testing::OpUnderTest;

inline const OpUnderTest forward_op{"sdpa"}, backward_op{"sdpa_backward"};

// The heads of a case: Hkv key/value heads, G query heads each (H = Hkv*G).
struct CaseHeads {
  std::int64_t Hkv = 1, G = 1;
};

// A float32 case of `op` ("sdpa" or "sdpa_backward") at scale 0.125, q and k drawn at `qk_scale`.
inline Case make_case(const char* op, std::int64_t B, CaseHeads heads, std::int64_t S, std::int64_t D, bool causal,
                      bool bshd, std::uint64_t seed, double qk_scale = 1.0) {
  return case_of(op, seed, {{"B", B}, {"Hkv", heads.Hkv}, {"G", heads.G}, {"S", S}, {"D", D}},
                 {{"causal", causal ? 1.0 : 0.0},
                  {"layout", bshd ? 1.0 : 0.0},
                  {"scale", 0.125},
                  {"dtype.act", 32},
                  {"scale.q", qk_scale},
                  {"scale.k", qk_scale}});
}

}  // namespace parity::ops::sdpa::testing
